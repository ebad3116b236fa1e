import Testing

@testable import TerminalKit

@Suite struct KeyDecoderTests {
    @Test func placeholder() { #expect(KeyDecoder().hasPendingInput == false) }
}
