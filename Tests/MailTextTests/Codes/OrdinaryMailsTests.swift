import MailText
import Testing

/// Ordinary mail full of numbers (dates, times, prices, orders, phone numbers, postcodes, hashes) and
/// mail that says "code" in another sense: none of it holds a one-time code.
@Suite struct OrdinaryMailsTests {
    struct Mail: Sendable, CustomTestStringConvertible {
        var subject: String
        var body: String
        var testDescription: String { subject }

        init(_ subject: String, _ body: String) {
            self.subject = subject
            self.body = body
        }
    }

    static let mails: [Mail] = [
        Mail("Weekly digest", "Issue 2024-05-01: 12 new articles. Sale ends 05/01/2024 at 12:30. Only €12.50!"),
        Mail("Your order has shipped", "Order #123456 has shipped. Tracking number: 1Z999AA10123456784."),
        Mail("Order confirmation", "Thanks! Your order 402-1234567-7654321 is confirmed. Total: $1,234.00"),
        Mail("Bestellbestätigung", "Vielen Dank für Ihre Bestellung 48213909. Summe: 1.234,56 EUR"),
        Mail("Confirmation de commande", "Votre commande n° 772019 a été confirmée le 1.5.2024."),
        Mail("Confirmación de pedido", "Tu pedido 559120 llegará el 12/05/2024. Código de seguimiento: ES4471992"),
        Mail("Invoice INV-2024-0042", "Please find attached invoice 20240042 for the amount of 1.234,56 EUR."),
        Mail("Rechnung", "Ihre Rechnung Nr. 99812 vom 01.05.2024, Betrag 49,99 €."),
        Mail(
            "Team sync", "Join Zoom Meeting\nhttps://zoom.us/j/85123456789\nMeeting ID: 851 2345 6789\nPasscode: 482913"
        ),
        Mail(
            "Invitation: Planning @ Tue 10:30",
            "Dial-in: +1 415 555 0100, PIN: 123456#\nConference ID: 992 118 302#\nWhen: Tue May 7, 2024 10:30 – 11:00"),
        Mail("Call me", "Reach me at (415) 555-0100 or +49 30 1234567 after 18:00."),
        Mail("New address", "Our office moved to 221B Baker Street, London NW1 6XE. Postcode for parcels: 10115."),
        Mail("Adresse", "Neue Adresse: Hauptstraße 5, 10115 Berlin. Telefon 030 1234567."),
        Mail("Re: fix parser", "Fixed in commit 3fa9c2d1e4b5. The code review is at 10:30 tomorrow."),
        Mail("Re: PR", "The code in 5f2a8c1 breaks line 1234 of parser.c; see issue 4821."),
        Mail("Tabs", "Remember to PIN your tab before the demo on 2024-06-01."),
        Mail("Promo", "Use promo code SAVE2024 for 20% off until 31.12.2024!"),
        Mail("Gutschein", "Ihr Gutscheincode: WINTER25 – gültig bis 31.01.2025."),
        Mail("Code promo", "Profitez de -30% avec le code promo ETE30 jusqu'au 15/08."),
        Mail("Your gift", "Your gift card code is X7K2-9PQM-4RTA, balance $50.00."),
        Mail("Year in review", "2023 was a great year. In 2024 we shipped 1999 features."),
        Mail("Meeting notes", "We met on 1.5.2024 at 12:30 and decided the budget is $12,500."),
        Mail("Build failed", "Build 4821 failed with exit code 137 on runner 12."),
        Mail("HTTP error", "The server returned status code 503 and error code 10054."),
        Mail("Flight", "Booking reference: K7XQ2P. Flight LH 4821 departs 14:35 from gate B12."),
        Mail("Reservation", "Your reservation number is 558201 for 2 guests on 05/06/2024."),
        Mail("Message-ID", "See <20240501123045.3fa9c2d1@mail.example.com> and 550e8400-e29b-41d4-a716-446655440000."),
        Mail("Link", "Open https://example.com/verify?code=482913&user=5521 in your browser."),
        Mail("Contact", "Write to support4821@example.com or code-team@example.org."),
        Mail("Newsletter", "Top deals this week: TV 55\" for €499.99, laptop for $1,234. Offer ends 2024-05-31."),
        Mail("Paket", "Ihre Sendung 00340434161234567890 wird am 02.05.2024 zwischen 10:00 und 14:00 zugestellt."),
        Mail("Versand", "Sendungsnummer JJD0001234567 – voraussichtliche Zustellung 3.5."),
        Mail("注文確認", "ご注文番号：250-1234567-7654321\nお届け予定日：2024年5月3日\n合計：¥12,800"),
        Mail("订单确认", "您的订单号 202405011234 已发货，预计5月3日送达。"),
        Mail("주문 확인", "주문번호 20240501-0001234 결제금액 12,500원"),
        Mail("Talk", "Slides: code samples at github.com/acme/talk, room 4821, 15:00-16:00."),
        Mail("Sign-in notice", "New sign-in to your account on 2024-05-01 12:30 from 192.168.1.10 (Berlin)."),
        Mail("Confirm your email", "Please confirm your email address by clicking the link below. Thanks!"),
        Mail("Verify your account", "Click https://example.com/v/3fa9c2d1-e4b5 to verify your account by 12:00."),
        Mail("Wi-Fi", "Guest Wi-Fi code: CAFE2024 — network SSID Lobby."),
        Mail("Your code", "Hi, your code looks good to me. Ship it in version 4.2.1 next week."),
        Mail("Kod źródłowy", "Kod źródłowy projektu jest na GitHubie, wersja 2024."),
        Mail(
            "Bank statement", "Account ending in 4821: balance 1.234,56 EUR on 30.04.2024. IBAN DE89370400440532013000."
        ),
        Mail("Country code", "Dial country code +44 then 20 7946 0958."),
        Mail("Postcode", "Please enter your postcode 90210 and area code 415."),
        Mail("QR", "Scan the QR code at entrance 3 between 18:00 and 20:00 on 12.05."),
        Mail("Ticket", "Your ticket 77201934 for Row 12 Seat 4, doors open 19:30."),
        Mail("Re: USRP", "I ran the example code on an X310 and an N200, flashed with STM32 firmware 3150322."),
        Mail("Test data", "Some test scripts hard code the SHA1 hash of the first 1024 bytes of this message."),
        Mail("Bounce", "The line \"Diagnostic-Code:\" names the reason. The RFC822 header follows."),
        Mail("Betaling", "Status: 25 Geautoriseerd\nAutorisatiecode: 9873211\nBedrag: 12,50 EUR"),
        Mail("Snippet", "Here is the code I use:\n\nfor i in range(10):\n    print(i)\n\nIt fails on line 1234."),
    ]

    @Test("no ordinary mail yields a code", arguments: mails)
    func yieldsNothing(mail: Mail) {
        let found = VerificationCodeDetector.detect(
            subject: mail.subject, text: mail.body, from: MailAddress(name: "Shop", address: "news@shop.example"))
        #expect(found == nil)
    }
}
