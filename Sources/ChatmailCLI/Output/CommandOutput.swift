/// What a command that prints JSON on request does with its result: JSON with `--json`, text otherwise,
/// through the pager where the command allows it. The one place the two outputs are chosen between, so a
/// command states its two renderings and nothing else.
extension JSONOutputCommand {
    func output(
        _ env: AppEnvironment, paging: Bool = false, json: () throws -> String, text: () throws -> String
    ) throws {
        if printsJSON {
            try env.write(try json())
        } else {
            try env.present(try text(), paging: paging)
        }
    }
}

/// A command that runs against a chatmail home chosen by the global options.
protocol HomeCommand {
    var global: GlobalOptions { get }
}

extension HomeCommand {
    /// The environment the command runs in, built from its global options the one way every command does.
    func makeEnvironment() -> AppEnvironment { AppEnvironment(global) }
}

extension App: HomeCommand {}
extension Codes: HomeCommand {}
extension Conversations: HomeCommand {}
extension Export: HomeCommand {}
extension Import: HomeCommand {}
extension Login: HomeCommand {}
extension Pending.List: HomeCommand {}
extension Pending.Run: HomeCommand {}
extension Reply: HomeCommand {}
extension Rules.Add: HomeCommand {}
extension Rules.Export: HomeCommand {}
extension Rules.Import: HomeCommand {}
extension Rules.List: HomeCommand {}
extension Rules.Remove: HomeCommand {}
extension Rules.Test: HomeCommand {}
extension Screener: HomeCommand {}
extension Search: HomeCommand {}
extension Send: HomeCommand {}
extension Show: HomeCommand {}
extension Status: HomeCommand {}
extension Sync: HomeCommand {}
