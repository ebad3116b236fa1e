import ChatmailCLI

await ChatmailCommand.main()
