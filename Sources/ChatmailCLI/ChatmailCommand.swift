public struct ChatmailCommand { public static func main() async {} }
