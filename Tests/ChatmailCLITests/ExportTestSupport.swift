import ChatmailStore
import ChatmailTestSupport
import CommonMarkTestSupport
import Foundation
import GRDB
import GmailModel
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension EmulatorProcess {
    /// GETs a control endpoint and decodes its JSON object.
    func get(_ path: String) async throws -> [String: Any] {
        let (data, _) = try await URLSession.shared.data(from: baseURL.appendingPathComponent(path))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}

/// Every regular file under `directory`, by path relative to it, with its bytes.
func filesUnder(_ directory: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let base = directory.resolvingSymlinksInPath().path + "/"
    guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
    else { return [:] }
    for case let url as URL in walker where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true
    {
        files[String(url.resolvingSymlinksInPath().path.dropFirst(base.count))] = try Data(contentsOf: url)
    }
    return files
}

/// Parses an exported Markdown file: checks its front matter is the simple YAML the exporter writes and
/// returns the parsed body.
func parseExport(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> (
    front: [String], body: ParsedMarkdown
) {
    let (front, body) = try #require(splitFrontMatter(text), "no front matter", sourceLocation: sourceLocation)
    #expect(frontMatterProblems(front) == [], sourceLocation: sourceLocation)
    return (front, try await ParsedMarkdown.parse(body))
}
