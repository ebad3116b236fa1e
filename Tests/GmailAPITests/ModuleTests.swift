import GmailAPI
import Testing

@Suite struct GmailAPIModuleTests {
    @Test("the default base URL is Google's")
    func baseURL() { #expect(GmailAPIModule.defaultBaseURL == "https://gmail.googleapis.com") }
}
