import Testing

@testable import ChatmailAppRuntime

@Suite struct LiveSearchTests {
    @Test(
        "the word being typed is a prefix; a finished word, syntax and short fragments are left as typed",
        arguments: [
            ("pro", "pro*"), ("budget pro", "budget pro*"), ("project ", "project"), ("p", "p"),
            ("meet*", "meet*"), ("\"exact phrase\"", "\"exact phrase\""), ("AT&T", "AT&T"), ("  lunch", "lunch*"),
        ])
    func liveQuery(typed: String, searched: String) {
        #expect(AppEffects.liveQuery(typed) == searched)
    }

    @Test("nothing typed searches nothing")
    func empty() {
        #expect(AppEffects.liveQuery("   ") == nil)
    }
}
