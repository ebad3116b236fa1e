import GmailEmulator

print("\(GmailEmulatorModule.name): not implemented yet")
