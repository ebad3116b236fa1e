import ChatmailStore
import Foundation
import TerminalKit
import TerminalUI

/// Everything the app shows and remembers, as one value: the reducer changes it, the view draws it.
///
/// Nothing in it is a handle to the store or the terminal, so a test can build a state, send it events
/// and compare the result without either.
public struct AppState: Sendable, Equatable {
    /// The account's address, for the status line.
    public var account: String
    /// Whether the mailbox syncs with Gmail. The runtime decides it (is there a saved login?) and the
    /// reducer only obeys, so it stays free of I/O.
    public var origin: MailboxOrigin
    public var size: TerminalSize
    /// The glyphs and time zone the transcript is measured with; pass the view the same glyphs, or
    /// scrolling clamps against a slightly different line count.
    public var glyphs: Glyphs
    public var timeZone: TimeZone
    /// The time of the last tick, in ms since the epoch.
    public var nowMs: Int64
    /// How often a tick starts a sync on its own.
    public var syncIntervalMs: Int64
    /// The newest messages a transcript loads.
    public var transcriptLimit: Int
    /// The most conversations the list loads.
    public var listLimit: Int

    public var focus: Focus = .list
    /// Where Esc returns from the search, the composer and the pending queue.
    public var returnFocus: Focus = .list
    /// Where the help overlay returns to: it opens over any mode.
    public var helpReturnFocus: Focus = .list
    public var filter: ListFilter = .inbox
    public var conversations: [ConversationSummary] = []
    /// The selected conversation, kept by id so a reload that reorders the list keeps it selected.
    public var selectedID: ConversationID?
    /// Where the selection was, for when its conversation leaves the list (archived, trashed).
    public var selectedIndex = 0
    public var transcript: OpenTranscript?
    public var search = SearchState()
    public var composer: Composer?
    /// The draft last handed to `reply` or `send`, restored into the composer when that fails.
    public var sentDraft: Composer?
    public var pending = PendingQueueState()
    /// The one-time codes `C` shows.
    public var codes = CodesState()
    /// The screener's switch and how many conversations it holds; `nil` until the store has answered.
    public var screener: ScreenerStatus?
    /// The action `U` undoes.
    public var lastAction: LastAction?
    public var status = StatusFacts()
    /// When the next sync is due; `nil` until the first tick sets it.
    public var nextSyncAtMs: Int64?
    /// Whether a sync was asked for while one ran: another runs when it ends, to carry the new work.
    public var syncRequestedWhileRunning = false
    /// Work started and not yet answered, for the progress note.
    public var running: Set<Work> = []
    /// When each running work was first seen by a tick.
    public var runningSince: [Work: Int64] = [:]

    public init(
        account: String, origin: MailboxOrigin = .synced, size: TerminalSize, glyphs: Glyphs = .rounded,
        timeZone: TimeZone = .current, nowMs: Int64 = 0, syncIntervalMs: Int64 = 60_000, transcriptLimit: Int = 200,
        listLimit: Int = 500
    ) {
        self.account = account
        self.origin = origin
        self.size = size
        self.glyphs = glyphs
        self.timeZone = timeZone
        self.nowMs = nowMs
        self.syncIntervalMs = syncIntervalMs
        self.transcriptLimit = transcriptLimit
        self.listLimit = listLimit
    }

    /// The progress note of the work that has run longest, once it has run past the delay.
    public var progressNote: String? {
        let slow = runningSince.filter { nowMs - $0.value >= AppReducer.progressDelayMs && running.contains($0.key) }
        return slow.min { $0.value < $1.value || $0.value == $1.value && $0.key.rawValue < $1.key.rawValue }?.key
            .progressNote
    }

    public var layout: AppLayout { AppLayout(size: size, composerRows: composer?.visibleRowCount ?? 0) }

    /// The selected conversation, if the list has one.
    public var selectedConversation: ConversationSummary? {
        selectedID.flatMap { id in conversations.first { $0.id == id } }
    }

    /// The conversation an action key acts on: the open one while reading it, else the selected one.
    public var actionTarget: ConversationSummary? {
        if focus == .transcript, let open = transcript?.transcript?.conversation { return open }
        return selectedConversation
    }
}

/// Where the mailbox's mail comes from, which decides whether the app syncs at all.
public enum MailboxOrigin: Sendable, Equatable {
    /// An account with a saved login (Gmail's API or IMAP): synced in the background, after actions and on `S`.
    case synced
    /// Mail imported with no login: read and sorted here, and never synced. A normal state, not a failure,
    /// so the status line says so quietly instead of reporting every sync it would attempt as an error.
    case local

    /// What the sync key says on a local mailbox.
    public static let localSyncNote =
        "Local mailbox: nothing to sync. `chatmail login` connects it to Gmail or an IMAP server."
}

/// Which part of the screen takes the keys.
public enum Focus: Sendable, Equatable {
    case list, transcript, search, composer, pending, codes, help
}

/// The list's filters, in the order `f` cycles through them.
///
/// The screener's section is in the cycle whether the screener is on or not: with it off, the section
/// shows what turning it on would hold back, while the inbox still lists those conversations.
public enum ListFilter: String, Sendable, CaseIterable {
    case inbox, unread, people, lists, newsletters, all, screener

    /// The filter after this one, wrapping around.
    public var next: ListFilter {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// The store's filter: the same choices `chatmail conversations` offers with its flags.
    public func conversationFilter(limit: Int?) -> ConversationFilter {
        switch self {
        case .inbox: ConversationFilter(limit: limit)
        case .unread: ConversationFilter(unreadOnly: true, limit: limit)
        case .people: ConversationFilter(kind: .people, lists: .excluded, limit: limit)
        case .lists: ConversationFilter(lists: .only, limit: limit)
        case .newsletters: ConversationFilter(kind: .newsletters, limit: limit)
        case .all: ConversationFilter(visibility: .all, limit: limit)
        case .screener: ConversationFilter(section: .screener, limit: limit)
        }
    }
}

/// The conversation on the right (or, when narrow, on its own) and where it is scrolled to.
public struct OpenTranscript: Sendable, Equatable {
    public var id: ConversationID
    /// `nil` while it loads.
    public var transcript: Transcript?
    /// The first line shown.
    public var top = 0
    /// Whether the view follows the newest message: then new messages scroll into view.
    public var followsBottom = true
    /// How many lines the rendered transcript has at the current width, measured by the reducer so it
    /// can clamp scrolling.
    public var lineCount = 0
    /// A message to scroll to once the transcript has loaded (a search hit).
    public var targetMessage: MessageID?

    public init(id: ConversationID, targetMessage: MessageID? = nil) {
        self.id = id
        self.targetMessage = targetMessage
        self.followsBottom = targetMessage == nil
    }
}

/// The live search: what is typed, what matched it, and which hit is selected.
public struct SearchState: Sendable, Equatable {
    public var query = ""
    public var hits: [SearchHit] = []
    /// The query `hits` answer. While it differs from `query`, the hits on screen are an earlier query's
    /// and a search for the current one is on its way.
    public var hitsQuery = ""
    /// Enter was pressed before the current query's hits arrived: they open the chosen hit on arrival,
    /// so typing a query and pressing Enter at once opens what it finds, however slow the search.
    public var opensOnArrival = false
    public var selection = 0
    /// Why the query was rejected (FTS syntax), shown in place of the hits.
    public var error: String?

    public init() {}
}

/// The queue of actions on their way to Gmail, as `p` shows it.
public struct PendingQueueState: Sendable, Equatable {
    public var actions: [PendingAction] = []
    public var selection = 0

    public init() {}

    public var selected: PendingAction? { actions.indices.contains(selection) ? actions[selection] : nil }
}

/// The codes found in recent mail, newest first, as `C` lists them.
public struct CodesState: Sendable, Equatable {
    public var hits: [VerificationCodeHit] = []
    /// How many older codes of the window the limit left out: the pane says so under the list.
    public var omittedCount = 0
    public var selection = 0
    /// Whether the store has answered since the pane opened: until then it says it is looking.
    public var isLoaded = false
    /// Why the codes could not be read, shown in place of them.
    public var error: String?

    public init() {}

    public var selected: VerificationCodeHit? { hits.indices.contains(selection) ? hits[selection] : nil }
}

/// The last action, as much as undoing it needs.
public struct LastAction: Sendable, Equatable {
    public var kind: PendingActionKind
    public var conversation: ConversationID
    public var title: String
    /// The queued actions it created: cancelled if they have not gone out.
    public var actionIDs: [PendingActionID]

    public init(kind: PendingActionKind, conversation: ConversationID, title: String, actionIDs: [PendingActionID]) {
        self.kind = kind
        self.conversation = conversation
        self.title = title
        self.actionIDs = actionIDs
    }
}

/// What the status line reports.
public struct StatusFacts: Sendable, Equatable {
    public var lastSyncAtMs: Int64?
    public var pendingCount = 0
    public var failedCount = 0
    public var isOffline = false
    public var lastError: String?
    /// A short confirmation of what just happened ("Archived …", the send status).
    public var note: String?

    public init() {}
}

/// Kinds of work whose slowness the status line admits to.
public enum Work: String, Sendable, Hashable, CaseIterable {
    case sync, loading, search, action, send, pending, codes

    /// The progress note, present tense.
    public var progressNote: String {
        switch self {
        case .sync: "Syncing…"
        case .loading: "Loading…"
        case .search: "Searching…"
        case .action: "Working…"
        case .send: "Sending…"
        case .pending: "Updating the queue…"
        case .codes: "Looking for codes…"
        }
    }
}

/// Where the panes go for a terminal size: side by side from 100 columns, one at a time below.
public struct AppLayout: Sendable, Equatable {
    public var size: TerminalSize
    public var composerRows: Int

    /// Narrower than this, the list and the transcript take turns.
    public static let wideColumns = 100

    public init(size: TerminalSize, composerRows: Int = 0) {
        self.size = size
        self.composerRows = composerRows
    }

    public var isWide: Bool { size.columns >= Self.wideColumns }
    /// About 40% for the list.
    public var listWidth: Int { isWide ? size.columns * 2 / 5 : max(1, size.columns) }
    /// What is left of the separator, or the whole width.
    public var transcriptWidth: Int { isWide ? size.columns - listWidth - 1 : max(1, size.columns) }
    /// Rows for the panes: all but the status line and the composer.
    public var paneRows: Int { max(0, size.rows - 1 - composerRows) }
}
