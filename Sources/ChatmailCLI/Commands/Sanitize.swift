import ArgumentParser
import MailText

/// `chatmail sanitize`: prints the allow-list-sanitized HTML of an HTML input.
struct Sanitize: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the sanitized HTML of an HTML input (a file or stdin).",
        discussion: "Scripts, event handlers, dangerous URLs, tracking pixels and remote images are removed or blocked."
    )

    @OptionGroup var output: OutputOptions

    @Argument(help: "The HTML file, or - for stdin.") var file: String = "-"
    @Flag(
        help: "Keep remote images instead of blocking them (a blocked image keeps only its host, in data-blocked-host)."
    ) var allowRemoteImages = false

    func run() async throws {
        let env = AppEnvironment(GlobalOptions(output: output))
        let html = try CommandInput.nonEmptyText(try CommandInput.read(file), what: "HTML")
        let sanitizer = HTMLSanitizer(options: .init(blockRemoteImages: !allowRemoteImages))
        let output = sanitizer.sanitize(html)
        try env.write(output.hasSuffix("\n") ? output : output + "\n")
    }
}
