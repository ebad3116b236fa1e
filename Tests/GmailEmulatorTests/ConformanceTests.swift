import Foundation
import GmailEmulator
import Testing

/// Checks emitted objects against the discovery document's schemas, which the contract makes the truth
/// about field names and types.
@Suite struct ConformanceTests {
    static var discovery: JSONValue {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let url = root.appendingPathComponent("Fixtures/gmail/gmail-v1-discovery.json")
        return (try? Data(contentsOf: url)).flatMap { JSONValue.parse([UInt8]($0)) } ?? .null
    }

    /// Records every violation of `schema` in `value`.
    static func check(
        _ value: JSONValue, schema name: String, schemas: JSONValue, path: String, problems: inout [String]
    ) {
        guard case .object(let pairs) = value, let properties = schemas[name]?["properties"] else {
            problems.append("\(path): not an object or unknown schema \(name)")
            return
        }
        for (key, child) in pairs {
            guard let property = properties[key] else {
                problems.append("\(path).\(key): not in \(name)")
                continue
            }
            checkProperty(child, property, schemas: schemas, path: "\(path).\(key)", problems: &problems)
        }
    }

    static func checkProperty(
        _ value: JSONValue, _ property: JSONValue, schemas: JSONValue, path: String, problems: inout [String]
    ) {
        if let ref = property["$ref"]?.stringValue {
            check(value, schema: ref, schemas: schemas, path: path, problems: &problems)
            return
        }
        switch (property["type"]?.stringValue ?? "", value) {
        case ("string", .string): break
        case ("integer", .int), ("number", .int), ("number", .double), ("boolean", .bool), ("object", .object): break
        case ("array", .array(let items)):
            for (index, item) in items.enumerated() {
                checkProperty(
                    item, property["items"] ?? .null, schemas: schemas, path: "\(path)[\(index)]", problems: &problems)
            }
            if items.isEmpty { problems.append("\(path): empty array should be omitted") }
        default: problems.append("\(path): \(value) does not match type \(property["type"]?.stringValue ?? "?")")
        }
    }

    @Test("every emitted field is a schema property with the schema's JSON type")
    func conformance() async throws {
        let schemas = try #require(ConformanceTests.discovery["schemas"])
        try await withEmulator { h in
            let start = try await h.get(Harness.me + "/profile").json["historyId"]?.stringValue ?? ""
            let list = try await h.get(Harness.me + "/messages?maxResults=2").json
            let ids = (try await h.get(Harness.me + "/messages").json["messages"]?.arrayValue ?? []).compactMap {
                $0["id"]?.stringValue
            }
            _ = try await h.post(
                Harness.me + "/messages/\(ids[0])/modify",
                json: #"{"removeLabelIds":["UNREAD"],"addLabelIds":["STARRED"]}"#)
            _ = try await h.deliver(Fixtures.plain(40))
            _ = try await h.request("DELETE", Harness.me + "/messages/\(ids[1])")
            var objects: [(JSONValue, String)] = [
                (try await h.get(Harness.me + "/profile").json, "Profile"),
                (try await h.get(Harness.me + "/labels").json, "ListLabelsResponse"),
                (try await h.get(Harness.me + "/labels/INBOX").json, "Label"),
                (try await h.get(Harness.me + "/settings/sendAs").json, "ListSendAsResponse"),
                (list, "ListMessagesResponse"),
                (try await h.get(Harness.me + "/history?startHistoryId=\(start)").json, "ListHistoryResponse"),
            ]
            for id in ids.dropFirst(2) {
                for format in ["minimal", "metadata", "full", "raw"] {
                    objects.append((try await h.get(Harness.me + "/messages/\(id)?format=\(format)").json, "Message"))
                }
            }
            var problems: [String] = []
            for (object, schema) in objects {
                ConformanceTests.check(object, schema: schema, schemas: schemas, path: schema, problems: &problems)
            }
            #expect(problems.isEmpty, "\(problems)")
            let history = objects[5].0["history"]?.arrayValue ?? []
            #expect(history.count == 3)
        }
    }
}
