import GmailEmulator
import Testing

@Suite struct GmailEmulatorModuleTests {
    @Test("the module is named")
    func name() { #expect(GmailEmulatorModule.name == "gmail-emulator") }
}
