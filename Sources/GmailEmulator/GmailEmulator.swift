import Hummingbird

/// The local Gmail API and OAuth emulator (issue 4). This file only names the module until its parts land.
public enum GmailEmulatorModule {
    public static let name = "gmail-emulator"
}
