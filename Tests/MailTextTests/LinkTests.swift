import MailText
import Testing

@Suite struct LinkTests {
    @Test("links against the system libxml2")
    func version() {
        #expect(LibXML2.version.hasPrefix("2."))
    }
}
