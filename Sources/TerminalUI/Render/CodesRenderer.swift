import TextFormatting

/// Renders one-time codes as a table: the code in bold, the service, the sender, how long ago. Both
/// `chatmail codes` and the app's codes drawer draw their rows here.
///
/// No row is wider than ``width``: the columns are as wide as their widest entry (the code and the service
/// at most 24), the age keeps its place at the end, and the sender is cut (with the glyphs' ellipsis) or
/// padded to what is left, so the ages line up. On a very narrow screen the service gives way first.
public struct CodesRenderer: Sendable {
    public var width: Int
    public var time: TimeFormatting
    public var palette: Palette
    public var glyphs: Glyphs

    /// The widest the code and service columns grow.
    static let maximumColumnWidth = 24
    /// The narrowest the sender may be cut to before the service column gives way.
    static let minimumSenderWidth = 8

    public init(width: Int, time: TimeFormatting, palette: Palette, glyphs: Glyphs = .rounded) {
        self.width = width
        self.time = time
        self.palette = palette
        self.glyphs = glyphs
    }

    /// The table, then how many more codes there are than the limit let through.
    /// - Parameter scope: where the others are (`in this window`), for the last line.
    public func render(_ codes: [CodeRow], omittedCount: Int = 0, scope: String? = nil) -> String {
        rows(codes).map { $0 + "\n" }.joined() + LimitNote.line(omittedCount, scope, palette: palette)
    }

    /// A row per code, each at most ``width`` columns.
    public func rows(_ codes: [CodeRow]) -> [String] {
        let ellipsis = glyphs.ellipsis
        let texts = codes.map { TerminalSafeText.singleLine($0.code) }
        let services = codes.map { TerminalSafeText.singleLine($0.service ?? "") }
        let senders = codes.map { TerminalSafeText.singleLine(Self.senderName($0)) }
        let ages = codes.map { time.ago($0.receivedAtMs) }
        let ageWidth = ages.map(DisplayWidth.of).max() ?? 0
        let codeWidth = min(
            Self.maximumColumnWidth, texts.map(DisplayWidth.of).max() ?? 0, max(1, width - ageWidth - 4))
        // Code, two spaces, [service, two spaces,] sender, two spaces, age.
        let room = width - codeWidth - ageWidth - 4
        var serviceWidth = min(Self.maximumColumnWidth, services.map(DisplayWidth.of).max() ?? 0)
        serviceWidth = min(serviceWidth, max(0, room - 2 - Self.minimumSenderWidth))
        if serviceWidth < 4 { serviceWidth = 0 }
        let senderWidth = max(0, room - (serviceWidth > 0 ? serviceWidth + 2 : 0))
        func column(_ text: String, _ width: Int) -> String {
            DisplayWidth.pad(DisplayWidth.truncate(text, toWidth: width, ellipsis: ellipsis), toWidth: width)
        }
        return codes.indices.map { index in
            var row = palette.paint(column(texts[index], codeWidth), .bold) + "  "
            if serviceWidth > 0 { row += column(services[index], serviceWidth) + "  " }
            return row + column(senders[index], senderWidth) + "  " + palette.paint(ages[index], .dim)
        }
    }

    /// Who sent the code: the name, unless it only repeats the service, when the address says more.
    static func senderName(_ code: CodeRow) -> String {
        code.sender.name.flatMap { $0 == code.service ? nil : $0 } ?? code.sender.address
    }
}
