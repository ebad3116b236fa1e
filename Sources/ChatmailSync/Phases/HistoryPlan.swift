import GmailAPI

/// What a run of history records asks for, planned without touching the network or the store.
///
/// Label changes are folded per message in history order (the last add or remove of a label wins), so
/// they can be applied in a few batched statements with the same result as replaying every record.
struct HistoryPlan: Sendable, Equatable {
    /// Messages added, in history order, each once.
    private(set) var added: [String] = []
    /// Messages permanently deleted.
    private(set) var deleted: Set<String> = []
    /// Per message: label id → `true` when the last change added it, `false` when it removed it.
    private(set) var labelDeltas: [String: [String: Bool]] = [:]
    /// Label add/remove entries seen (for the sync summary).
    private(set) var labelChangeCount = 0

    init(records: [HistoryRecord]) {
        var seen = Set<String>()
        for record in records {
            for change in record.messagesAdded where seen.insert(change.message.id).inserted {
                added.append(change.message.id)
            }
            for change in record.labelsAdded {
                labelChangeCount += 1
                for label in change.labelIds { labelDeltas[change.message.id, default: [:]][label] = true }
            }
            for change in record.labelsRemoved {
                labelChangeCount += 1
                for label in change.labelIds { labelDeltas[change.message.id, default: [:]][label] = false }
            }
            for change in record.messagesDeleted { deleted.insert(change.message.id) }
        }
    }

    /// Every id the plan may download (added or relabelled, not deleted): the only ids whose presence
    /// in the store needs checking.
    var candidateIDs: [String] {
        Array(Set(added).union(labelDeltas.keys).subtracting(deleted)).sorted()
    }

    /// Ids to download in full: added or relabelled messages we do not store, unless deleted since.
    /// A label change on a message we never stored (mail moved out of spam, say) brings it in.
    func idsToFetch(stored: Set<String>) -> [String] {
        var ids: [String] = []
        var seen = Set<String>()
        for id in added + labelDeltas.keys.sorted()
        where !deleted.contains(id) && !stored.contains(id) && seen.insert(id).inserted {
            ids.append(id)
        }
        return ids
    }

    /// Label deltas grouped by identical (add, remove) sets, for batched application.
    func groupedDeltas(excluding skipped: Set<String>) -> [(add: [String], remove: [String], ids: [String])] {
        var groups: [String: (add: [String], remove: [String], ids: [String])] = [:]
        for (id, delta) in labelDeltas where !skipped.contains(id) && !deleted.contains(id) {
            let add = delta.filter(\.value).map(\.key).sorted()
            let remove = delta.filter { !$0.value }.map(\.key).sorted()
            let key = add.joined(separator: ",") + "|" + remove.joined(separator: ",")
            groups[key, default: (add, remove, [])].ids.append(id)
        }
        return groups.keys.sorted().compactMap { groups[$0] }.map { ($0.add, $0.remove, $0.ids.sorted()) }
    }
}
