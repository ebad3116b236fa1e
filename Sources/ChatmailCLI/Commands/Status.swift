import ArgumentParser
import ChatmailStore
import Foundation
import JSONOutput
import RecordViews
import TerminalUI

/// `chatmail status`: the account, its sync state and what is waiting.
struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show the account, sync state, counts and queued work.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let env = makeEnvironment()
        let store = try env.openExistingStore()
        let account = try env.selectedAccount(in: store)
        let status = try store.status(of: account)
        let isDemo = try DemoHome.existing(at: env.home) != nil
        try output(env) {
            try JSONRenderer(time: env.time).render(status, dataPath: env.home.path, isDemo: isDemo)
        } text: {
            StatusRenderer(time: env.time, palette: env.palette).render(status, dataPath: env.home.path, isDemo: isDemo)
        }
    }
}
