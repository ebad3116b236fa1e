import Foundation
import Testing

@testable import TerminalUI

/// The codes table, as `chatmail codes` prints it and the app's drawer shows it.
@Suite struct CodesRendererTests {
    static let rows = [
        CodeRow(
            code: "482913", service: "GitHub", sender: Person(address: "noreply@github.com", name: "GitHub", key: "g"),
            receivedAtMs: GoldenCast.now - 5 * 60_000),
        CodeRow(
            code: "731-904", service: nil,
            sender: Person(address: "service@sparkasse.example", name: "Sparkasse Köln-Bonn Kundenservice", key: "s"),
            receivedAtMs: GoldenCast.now - 90 * 60_000),
    ]

    func renderer(width: Int, glyphs: Glyphs = .rounded) -> CodesRenderer {
        CodesRenderer(width: width, time: GoldenCast.time, palette: Palette(isEnabled: false), glyphs: glyphs)
    }

    @Test("columns line up, the ages end every row, and no row is wider than the width", arguments: [20, 30, 50, 80])
    func fits(width: Int) {
        let rows = renderer(width: width).rows(Self.rows)
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { DisplayWidth.of($0) <= width }, "\(rows)")
        #expect(rows[0].hasPrefix("482913 ") && rows[1].hasPrefix("731-904"), "\(rows)")
        #expect(rows[0].hasSuffix("5 min ago") && rows[1].hasSuffix("1 h ago"), "\(rows)")
    }

    @Test("at 50 columns: service, then the sender cut to what is left, padded so the ages line up")
    func layout() {
        #expect(
            renderer(width: 50).rows(Self.rows) == [
                "482913   GitHub  noreply@github.com      5 min ago",
                "731-904          Sparkasse Köln-Bonn K…  1 h ago",
            ])
    }

    @Test("ASCII glyphs cut with dots; colour paints the code bold and the age dim")
    func glyphsAndColour() {
        let ascii = renderer(width: 40, glyphs: .ascii).rows(Self.rows)
        #expect(ascii.joined().allSatisfy { $0.isASCII }, "\(ascii)")
        #expect(ascii[1].contains("..."))
        let painted = CodesRenderer(width: 80, time: GoldenCast.time, palette: Palette(isEnabled: true))
            .rows(Self.rows)
        #expect(painted[0].hasPrefix("\u{1B}["))
    }

    @Test("a cut table ends with how many more there are, in the limit note's words")
    func more() {
        let text = renderer(width: 80).render(Self.rows, omittedCount: 3, scope: "in this window")
        #expect(text.hasSuffix("\n3 more in this window (use --limit)\n"))
        #expect(!renderer(width: 80).render(Self.rows).contains("more"))
    }
}
