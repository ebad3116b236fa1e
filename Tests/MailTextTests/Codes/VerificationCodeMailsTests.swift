import MailText
import Testing

/// Verification mails as services write them, each with the one code a reader would copy.
@Suite struct VerificationCodeMailsTests {
    struct Mail: Sendable, CustomTestStringConvertible {
        var from: String
        var subject: String
        var body: String
        var code: String
        var normalized: String
        var testDescription: String { "\(from): \(code)" }

        init(_ from: String, _ subject: String, _ body: String, _ code: String, _ normalized: String? = nil) {
            self.from = from
            self.subject = subject
            self.body = body
            self.code = code
            self.normalized = normalized ?? code
        }
    }

    static let mails: [Mail] = [
        // English
        Mail(
            "GitHub <noreply@github.com>", "[GitHub] Please verify your device",
            "Hey octocat!\n\nA sign in attempt requires further verification because we did not recognize your device."
                + " To complete the sign in, enter the verification code on the unrecognized device.\n\n"
                + "Device: Firefox on Linux\nVerification code: 482913\n\nIf you did not attempt to sign in to your"
                + " account, your password may be compromised.", "482913"),
        Mail(
            "Google <no-reply@accounts.google.com>", "G-482913 is your Google verification code",
            "Google\n\nVerify your email address\n\nUse this code to finish setting up 2-Step Verification:\n\nG-482913"
                + "\n\nThis code will expire in 24 hours.", "G-482913", "G482913"),
        Mail(
            "Microsoft account team <account-security-noreply@accountprotection.microsoft.com>",
            "Microsoft account security code",
            "Microsoft account\nSecurity code\n\nPlease use the following security code for the Microsoft account"
                + " ab***@example.com.\n\nSecurity code: 7305\n\nIf you don't recognize the Microsoft account, you can"
                + " click here to remove your email address from that account.", "7305"),
        Mail(
            "Apple <appleid@id.apple.com>", "Verify your Apple ID email address",
            "Dear Jane,\n\nYou have selected this email address as your new Apple ID. To verify this email address"
                + " belongs to you, enter the code below on the email verification page:\n\n582 014\n\nThis code will"
                + " expire three hours after this email was sent.", "582 014", "582014"),
        Mail(
            "Amazon.com <account-update@amazon.com>", "Amazon password assistance",
            "To authenticate, please use the following One Time Password (OTP):\n\n305117\n\nDon't share this OTP"
                + " with anyone. Our customer service team will never ask you for your password, OTP, credit card,"
                + " or banking info.", "305117"),
        Mail(
            "Steam Support <noreply@steampowered.com>", "Your Steam account: Access from new web or mobile device",
            "Dear gamer42,\n\nHere is the Steam Guard code you need to login to account gamer42:\n\nF7QKT\n\nThis"
                + " email was generated because of a login attempt from a web or mobile device located at Berlin, DE.",
            "F7QKT"),
        Mail(
            "Discord <noreply@discord.com>", "Your Discord login code",
            "Hey gamer,\n\nYour Discord verification code is: 801442\n\nThis code expires in 10 minutes.",
            "801442"),
        Mail(
            "Slack <no-reply@slack.com>", "Slack confirmation code: WKX-4T9",
            "Confirm your email address\n\nYour confirmation code is below — enter it in your open browser window"
                + " and we'll help you get signed in.\n\nWKX-4T9\n\nIf you didn't request this email, there's"
                + " nothing to worry about.", "WKX-4T9", "WKX4T9"),
        Mail(
            "Okta <noreply@okta.com>", "One-time verification code",
            "Hi Jane,\n\nYou have requested an email verification code to sign in to your account.\n\nEnter this"
                + " code: 19283746\n\nThis code expires in 5 minutes.", "19283746"),
        Mail(
            "Twilio SMS <sms@relay.example.net>", "SMS from +1 415 555 0100",
            "Your Acme verification code is 734920. Reply STOP to unsubscribe.", "734920"),
        Mail(
            "WhatsApp <no-reply@whatsapp.com>", "WhatsApp code",
            "Your WhatsApp code: 123-456\n\nYou can also tap on this link to verify your phone: v.whatsapp.com/123456"
                + "\n\nDon't share this code with others", "123-456", "123456"),
        Mail(
            "Telegram <noreply@telegram.org>", "Telegram login code",
            "Login code: 48213. Do not give this code to anyone, even if they say they are from Telegram!",
            "48213"),
        Mail(
            "PayPal <service@paypal.com>", "Your security code",
            "PayPal: Your security code is 601845. Your code expires in 10 minutes. Please don't reply.", "601845"),
        Mail(
            "Example Bank <alerts@mail.examplebank.co.uk>", "Your one-time passcode",
            "Your one-time passcode for the payment of GBP 12.50 to SHOP LTD with card ending 1234 is 09817364."
                + " Never share it.", "09817364"),
        Mail(
            "Notion <notify@makenotion.com>", "Your temporary Notion login code is KQWZPT",
            "Copy and paste this temporary login code:\n\nKQWZPT\n\nIf you didn't try to login, you can safely"
                + " ignore this email.", "KQWZPT"),
        Mail(
            "Dropbox <no-reply@dropbox.com>", "Your Dropbox security code",
            "Hi Jane,\n\nHere's your security code:\n\n**2819 3374**\n\nIt expires in 20 minutes.", "2819 3374",
            "28193374"),
        Mail(
            "Instagram <security@mail.instagram.com>", "583920 is your Instagram code",
            "Hi jane_doe,\n\nSomeone tried to log in to your Instagram account. If this was you, please use the"
                + " following code to confirm your identity:\n\n583920", "583920"),
        Mail(
            "2FA relay <auth@corp.example.com>", "2FA",
            "Your 2FA PIN for the VPN portal is 7719. It is valid for 60 seconds.", "7719"),
        Mail(
            "Epic Games <help@acct.epicgames.com>", "Your Epic Games security code",
            "Hello,\n\nA sign-in to your account requires a code. Your code is ABCD-EFGH.\n\nThanks,", "ABCD-EFGH",
            "ABCDEFGH"),
        // German
        Mail(
            "DKB <info@dkb.de>", "Ihr Bestätigungscode",
            "Guten Tag,\n\nIhr Bestätigungscode lautet: 493021\n\nDer Code ist 10 Minuten gültig.", "493021"),
        Mail(
            "N26 <no-reply@n26.com>", "Dein Anmeldecode",
            "Hallo Max,\n\nverwende den folgenden Code, um dich anzumelden:\n\n831 205\n\nViele Grüße\nDein N26 Team",
            "831 205", "831205"),
        // French
        Mail(
            "Doctolib <no-reply@doctolib.fr>", "Votre code de vérification",
            "Bonjour,\n\nVoici votre code de vérification : 720145\n\nCe code est valable 15 minutes.", "720145"),
        // Spanish
        Mail(
            "Mercado Libre <noreply@mercadolibre.com.ar>", "Código de verificación",
            "Hola,\n\nTu código de verificación es 556102. No lo compartas con nadie.", "556102"),
        // Portuguese
        Mail(
            "Nubank <meajuda@nubank.com.br>", "Seu código de verificação",
            "Olá!\n\nSeu código de verificação é: 284019\n\nEle expira em 10 minutos.", "284019"),
        // Italian
        Mail(
            "Poste Italiane <noreply@posteitaliane.it>", "Codice di verifica",
            "Gentile cliente,\n\nil tuo codice di verifica è 118204. Non comunicarlo a nessuno.", "118204"),
        // Dutch
        Mail(
            "bol.com <klantenservice@bol.com>", "Je verificatiecode",
            "Hoi,\n\nJe verificatiecode is: 907316\n\nDeze code is 15 minuten geldig.", "907316"),
        // Swedish
        Mail(
            "BankID <noreply@bankid.se>", "Din verifieringskod",
            "Hej!\n\nDin verifieringskod är 6612 8843. Koden gäller i 5 minuter.", "6612 8843", "66128843"),
        // Polish
        Mail(
            "Allegro <noreply@allegro.pl>", "Kod weryfikacyjny",
            "Cześć,\n\nTwój kod weryfikacyjny: 402917\n\nKod jest ważny przez 15 minut.", "402917"),
        // Russian
        Mail(
            "Яндекс ID <noreply@id.yandex.ru>", "Код подтверждения",
            "Здравствуйте!\n\nВаш код подтверждения: 385 120\n\nНикому не сообщайте этот код.", "385 120",
            "385120"),
        // Ukrainian
        Mail(
            "Monobank <noreply@monobank.ua>", "Код підтвердження",
            "Вітаємо!\n\nВаш код підтвердження — 771024. Не повідомляйте його нікому.", "771024"),
        // Turkish
        Mail(
            "Trendyol <noreply@trendyol.com>", "Doğrulama kodu",
            "Merhaba,\n\nDoğrulama kodunuz: 610294\n\nBu kodu kimseyle paylaşmayın.", "610294"),
        // Japanese
        Mail(
            "楽天 <noreply@rakuten.co.jp>", "【楽天】認証コードのお知らせ",
            "いつもご利用ありがとうございます。\n\n認証コード：308115\n\nこのコードの有効期限は30分です。", "308115"),
        Mail(
            "LINE <no-reply@line.me>", "確認コード", "LINEの確認コードは 4821 です。他人に教えないでください。", "4821"),
        // Chinese (simplified, traditional)
        Mail(
            "支付宝 <service@mail.alipay.com>", "验证码", "【支付宝】您的验证码是872615，5分钟内有效，请勿泄露给他人。", "872615"),
        Mail(
            "台灣大哥大 <service@example.com.tw>", "驗證碼通知", "您的驗證碼為 553201，請於10分鐘內輸入。", "553201"),
        // Korean
        Mail(
            "카카오 <noreply@kakaocorp.com>", "[카카오] 인증번호 안내",
            "안녕하세요.\n\n인증번호 [739015]를 입력해 주세요.\n\n인증번호는 3분간 유효합니다.", "739015"),
        Mail(
            "네이버 <help@naver.com>", "인증 코드", "요청하신 인증 코드는 560182 입니다.", "560182"),
        // Arabic
        Mail(
            "Careem <no-reply@careem.com>", "رمز التحقق", "رمز التحقق الخاص بك هو 492031. لا تشاركه مع أي شخص.",
            "492031"),
        // Hindi
        Mail(
            "Paytm <no-reply@paytm.com>", "सत्यापन कोड", "आपका सत्यापन कोड 839102 है। इसे किसी के साथ साझा न करें।",
            "839102"),
        // Indonesian
        Mail(
            "Tokopedia <noreply@tokopedia.com>", "Kode verifikasi",
            "Halo,\n\nKode verifikasi Anda adalah 503817. Jangan berikan kode ini kepada siapa pun.", "503817"),
        // Vietnamese
        Mail(
            "Shopee <no-reply@shopee.vn>", "Mã xác minh", "Mã xác minh của bạn là 271840. Mã có hiệu lực trong 5 phút.",
            "271840"),
        // Czech, Finnish
        Mail(
            "Seznam <noreply@seznam.cz>", "Ověřovací kód", "Váš ověřovací kód je 640183.", "640183"),
        Mail(
            "OP <noreply@op.fi>", "Vahvistuskoodi", "Vahvistuskoodisi on 902716. Älä kerro koodia kenellekään.",
            "902716"),
    ]

    @Test("each verification mail yields exactly its code", arguments: mails)
    func yieldsCode(mail: Mail) {
        let from = AddressListParser.parse(mail.from).first
        let found = VerificationCodeDetector.detect(subject: mail.subject, text: mail.body, from: from)
        #expect(found?.code == mail.code)
        #expect(found?.normalized == mail.normalized)
    }

    @Test(
        "the service is the display name without its team words, else the registrable domain",
        arguments: [
            ("GitHub <noreply@github.com>", "GitHub"),
            ("Microsoft account team <account-security-noreply@accountprotection.microsoft.com>", "Microsoft"),
            ("no-reply@accounts.google.com", "Google"), ("\"noreply\" <alerts@mail.examplebank.co.uk>", "Examplebank"),
            ("Slack Notifications <no-reply@slack.com>", "Slack"), ("x@localhost", ""),
        ])
    func service(from: String, expected: String) {
        let sender = AddressListParser.parse(from).first
        let found = VerificationCodeDetector.detect(subject: "Your code", text: "Your code is 482913", from: sender)
        #expect(found?.code == "482913")
        #expect(found?.service == (expected.isEmpty ? nil : expected))
    }

    @Test("without a sender the code is still found, with no service")
    func noSender() {
        let found = VerificationCodeDetector.detect(subject: "", text: "Your verification code: 4821", from: nil)
        #expect(found == VerificationCode(code: "4821", normalized: "4821", service: nil))
    }
}
