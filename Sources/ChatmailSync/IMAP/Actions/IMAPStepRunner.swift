import ChatmailStore
import IMAPClient
import IMAPProtocol

/// What a step did to where the message is, for the store to record.
enum IMAPLocationChange: Sendable, Equatable {
    /// The copy left its folder; it is now at `uid` in `folder` when that is known.
    case moved(IMAPMessageLocation, folder: String, uidValidity: UInt32?, uid: UInt32?)
    /// A new copy, beside the one it was made from.
    case copied(IMAPMessageLocation, folder: String, uidValidity: UInt32?, uid: UInt32?)
    /// The copy is gone.
    case removed(IMAPMessageLocation)
    /// The copy's flags as the server now has them (`nil`: unchanged).
    case flags(IMAPMessageLocation, seen: Bool?, flagged: Bool?)
}

/// Runs an action's steps on one connection, so that each happens once however often it is attempted.
///
/// A MOVE whose answer was lost may have happened: before moving, the runner looks whether the copy is
/// still in its folder, and if it is not, finds it in the destination by its Message-ID instead of
/// moving anything. A COPY + delete that may have run (the action failed before) first looks for the
/// copy in the destination. A new UID comes from COPYUID, or from the destination by Message-ID; a
/// message is never appended again.
struct IMAPStepRunner {
    let connection: IMAPConnection
    private var selected: (name: String, uidValidity: UInt32)?

    init(connection: IMAPConnection) {
        self.connection = connection
    }

    /// - parameter mayHaveRun: an earlier attempt of the action may have done some of this already.
    mutating func run(_ step: IMAPStep, rfc822MessageID: String?, mayHaveRun: Bool) async throws
        -> [IMAPLocationChange]
    {
        switch step {
        case .storeFlag(let copy, let change, let flag):
            try await select(copy)
            try await connection.uidStoreFlags(IMAPUIDSet([copy.uid]), change, [flag])
            let value = change == .add
            return [.flags(copy, seen: flag == "\\Seen" ? value : nil, flagged: flag == "\\Flagged" ? value : nil)]
        case .storeGmailLabel(let copy, let change, let label):
            try await select(copy)
            try await connection.uidStoreGmailLabels(IMAPUIDSet([copy.uid]), change, [label])
            return []
        case .move(let copy, let destination, let create):
            return try await move(copy, to: destination, create: create, id: rfc822MessageID, mayHaveRun: mayHaveRun)
        case .copy(let copy, let destination):
            try await select(copy)
            guard try await isPresent(copy) else { return [.removed(copy)] }
            if mayHaveRun, let found = try await find(rfc822MessageID, in: destination) {
                return [.copied(copy, folder: destination, uidValidity: found.uidValidity, uid: found.uid)]
            }
            try await select(copy)
            let copied = try await connection.uidCopy(IMAPUIDSet([copy.uid]), to: destination)
            let placed = try await placed(copy, copied, in: destination, id: rfc822MessageID)
            return [.copied(copy, folder: destination, uidValidity: placed.uidValidity, uid: placed.uid)]
        case .delete(let copy, let keptIn):
            // Never the last copy: the one kept must still be where the store last saw it.
            guard let id = rfc822MessageID else { return [] }
            guard try await find(id, in: keptIn) != nil else {
                return try await move(copy, to: keptIn, create: false, id: id, mayHaveRun: mayHaveRun)
            }
            try await select(copy)
            guard try await isPresent(copy) else { return [.removed(copy)] }
            try await delete(copy)
            return [.removed(copy)]
        case .moveFound(let id, let folder, let destination):
            try await select(folder)
            guard let uid = try await connection.uidSearchMessageID(id).max() else { return [] }
            _ = try await moveNow(uid, to: destination)
            return []
        }
    }

    private mutating func move(
        _ copy: IMAPMessageLocation, to destination: String, create: Bool, id: String?, mayHaveRun: Bool
    ) async throws -> [IMAPLocationChange] {
        try await select(copy)
        guard try await isPresent(copy) else {
            // Gone from its folder: an earlier attempt moved it (its answer lost), or another client did.
            let found = try await find(id, in: destination)
            return [.moved(copy, folder: destination, uidValidity: found?.uidValidity, uid: found?.uid)]
        }
        if create { try await connection.create(destination) }
        if !connection.has("MOVE"), mayHaveRun, let found = try await find(id, in: destination) {
            // A COPY of an earlier attempt arrived; only the delete is left to do.
            try await select(copy)
            try await delete(copy)
            return [.moved(copy, folder: destination, uidValidity: found.uidValidity, uid: found.uid)]
        }
        try await select(copy)
        let copied = try await moveNow(copy.uid, to: destination)
        let placed = try await placed(copy, copied, in: destination, id: id)
        return [.moved(copy, folder: destination, uidValidity: placed.uidValidity, uid: placed.uid)]
    }

    /// MOVE where the server has it; else COPY, `\Deleted` and UID EXPUNGE. The source is selected.
    private mutating func moveNow(_ uid: UInt32, to destination: String) async throws -> IMAPCopiedUIDs? {
        let set = IMAPUIDSet([uid])
        if connection.has("MOVE") { return try await connection.uidMove(set, to: destination) }
        let copied = try await connection.uidCopy(set, to: destination)
        try await expunge(set)
        return copied
    }

    /// Marks the copy `\Deleted` and expunges it.
    private func delete(_ copy: IMAPMessageLocation) async throws {
        try await expunge(IMAPUIDSet([copy.uid]))
    }

    /// `\Deleted`, then UID EXPUNGE of exactly these UIDs; a server without UIDPLUS has only EXPUNGE,
    /// which also removes what other clients marked `\Deleted` (which is what that mark asks for).
    private func expunge(_ set: IMAPUIDSet) async throws {
        try await connection.uidStoreFlags(set, .add, ["\\Deleted"])
        if connection.has("UIDPLUS") {
            try await connection.uidExpunge(set)
        } else {
            try await connection.expunge()
        }
    }

    /// Where the copy landed: COPYUID's UID, or the newest copy in the destination with its Message-ID.
    private mutating func placed(
        _ copy: IMAPMessageLocation, _ copied: IMAPCopiedUIDs?, in destination: String, id: String?
    ) async throws -> (uidValidity: UInt32?, uid: UInt32?) {
        if let copied, let uid = copied.mapping[copy.uid] { return (copied.uidValidity, uid) }
        let found = try await find(id, in: destination)
        return (found?.uidValidity, found?.uid)
    }

    /// The newest message in `folder` with Message-ID `id`; `nil` without an id or a match.
    private mutating func find(_ id: String?, in folder: String) async throws -> (uidValidity: UInt32, uid: UInt32)? {
        guard let id else { return nil }
        let validity = try await select(folder)
        guard let uid = try await connection.uidSearchMessageID(id).max() else { return nil }
        return (validity, uid)
    }

    private func isPresent(_ copy: IMAPMessageLocation) async throws -> Bool {
        try await connection.uidSearch("UID \(copy.uid)").contains(copy.uid)
    }

    /// Selects the copy's folder, and refuses to act on its UID when the folder has been renumbered
    /// since sync recorded it (the UID would name another message); the next sync records it afresh.
    private mutating func select(_ copy: IMAPMessageLocation) async throws {
        let validity = try await select(copy.folderName)
        if let recorded = copy.uidValidity, recorded != validity {
            throw IMAPClientError.commandFailed(
                command: "SELECT \(copy.folderName)", status: "UIDVALIDITY",
                serverText: "the folder was renumbered since the last sync; the next sync reads it again")
        }
    }

    /// Selects `name` read-write unless it is selected already; returns its UIDVALIDITY.
    @discardableResult
    private mutating func select(_ name: String) async throws -> UInt32 {
        if let selected, selected.name == name { return selected.uidValidity }
        // A SELECT the server refuses leaves no folder selected.
        selected = nil
        let selection = try await connection.select(name)
        selected = (name, selection.uidValidity)
        return selection.uidValidity
    }
}
