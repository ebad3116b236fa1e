import SMTPClient
import Testing
