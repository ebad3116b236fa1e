import MailText
import Testing

@Suite struct ReplySubjectTests {
    @Test(
        "Strips every reply prefix, in many languages, and adds one Re:",
        arguments: [
            ("Plan", "Re: Plan"),
            ("Re: Plan", "Re: Plan"),
            ("RE: Plan", "Re: Plan"),
            ("re: Plan", "Re: Plan"),
            ("Re:Plan", "Re: Plan"),
            ("Re: Re: Re: Plan", "Re: Plan"),
            ("Re[2]: Plan", "Re: Plan"),
            ("Re(3): Plan", "Re: Plan"),
            ("Re^2: Plan", "Re: Plan"),
            ("AW: Plan", "Re: Plan"),
            ("Aw: Plan", "Re: Plan"),
            ("Antw: Plan", "Re: Plan"),
            ("SV: Plan", "Re: Plan"),
            ("Sv: Plan", "Re: Plan"),
            ("VS: Plan", "Re: Plan"),
            ("Odp: Plan", "Re: Plan"),
            ("RIF: Plan", "Re: Plan"),
            ("Rif: Plan", "Re: Plan"),
            ("R: Plan", "Re: Plan"),
            ("Réf : Plan", "Re: Plan"),
            ("RE : Plan", "Re: Plan"),
            ("RES: Plano", "Re: Plano"),
            ("Ynt: Plan", "Re: Plan"),
            ("Vá: Terv", "Re: Terv"),
            ("ΑΠ: Σχέδιο", "Re: Σχέδιο"),
            ("ΣΧΕΤ: Σχέδιο", "Re: Σχέδιο"),
            ("Отв: План", "Re: План"),
            ("Ответ: План", "Re: План"),
            ("回复：计划", "Re: 计划"),
            ("答复: 计划", "Re: 计划"),
            ("回覆：計劃", "Re: 計劃"),
            ("Re: AW: Re: SV: Plan", "Re: Plan"),
            ("AW: RE: Odp: Plan", "Re: Plan"),
            ("  Re:   Plan  ", "Re: Plan"),
        ])
    func stripsPrefixes(subject: String, expected: String) {
        #expect(ReplySubject.make(from: subject) == expected)
    }

    @Test(
        "Leaves words that only look like prefixes, and forward prefixes",
        arguments: [
            ("Results: Q3", "Re: Results: Q3"),
            ("Re-design of the site", "Re: Re-design of the site"),
            ("Regarding: the plan", "Re: Regarding: the plan"),
            ("Fwd: Plan", "Re: Fwd: Plan"),
            ("Re: Fwd: Re: Plan", "Re: Fwd: Re: Plan"),
            ("WG: Plan", "Re: WG: Plan"),
            ("Re Plan", "Re: Re Plan"),
            ("Meeting at 10:30", "Re: Meeting at 10:30"),
            ("Re[x]: Plan", "Re: Re[x]: Plan"),
        ])
    func keepsNonPrefixes(subject: String, expected: String) {
        #expect(ReplySubject.make(from: subject) == expected)
    }

    @Test(
        "Keeps a leading list tag and strips the reply prefixes after it",
        arguments: [
            ("[dev] Plan", "Re: [dev] Plan"),
            ("[dev] Re: AW: Plan", "Re: [dev] Plan"),
            ("Re: [dev] Re: Plan", "Re: [dev] Plan"),
            ("Re: [dev] Re: [dev] Plan", "Re: [dev] Plan"),
            ("[EXTERNAL] [dev] RE: Plan", "Re: [EXTERNAL] [dev] Plan"),
            ("[2] Plan", "Re: [2] Plan"),
        ])
    func listTags(subject: String, expected: String) {
        #expect(ReplySubject.make(from: subject) == expected)
    }

    @Test(
        "An empty subject, or one of prefixes only, gives Re:", arguments: ["", "   ", "Re:", "RE: AW:", "[dev] Re:"])
    func emptySubject(subject: String) {
        let expected = subject.contains("[dev]") ? "Re: [dev]" : "Re:"
        #expect(ReplySubject.make(from: subject) == expected)
    }

    @Test("Making a reply subject twice changes nothing")
    func idempotent() {
        for subject in ["Plan", "AW: Re[2]: [dev] Plan", "", "回复：计划", "Fwd: x"] {
            let once = ReplySubject.make(from: subject)
            #expect(ReplySubject.make(from: once) == once)
        }
    }

    @Test(
        "The topic base drops reply and forward prefixes in many languages, keeps list tags, and folds case and spaces",
        arguments: [
            ("Plan", "plan"),
            ("Re: Plan", "plan"),
            ("RE:  Plan ", "plan"),
            ("Fwd: Plan", "plan"),  // a forward carries on the topic it forwards
            ("Fw: Plan", "plan"),
            ("WG: Plan", "plan"),  // German forward
            ("Wg: AW: Plan", "plan"),
            ("TR: Plan", "plan"),  // French forward
            ("RV: Plan", "plan"),  // Spanish forward
            ("VS: Plan", "plan"),  // a reply in Finnish
            ("转发：计划", "计划"),
            ("回复: Fwd: 计划", "计划"),
            ("답장: 계획", "계획"),
            ("Ynt: Plan", "plan"),
            ("Re[2]: Fwd: Re: Plan", "plan"),
            ("[dev] Fwd: Re: Plan", "[dev] plan"),
            ("Re: [dev]   Big  Plan", "[dev] big plan"),
            ("Results: Q3", "results: q3"),  // not a prefix
            ("Fwd:", ""),
        ])
    func topicBase(subject: String, expected: String) {
        #expect(ReplySubject.topicBase(subject) == expected)
    }

    @Test("A reply keeps to the topic of what it answers")
    func replyKeepsTopic() {
        for subject in ["Plan", "Fwd: Plan", "WG: AW: Plan", "[dev] Re: Plan", "回复：计划", "", "Re[x]: Plan"] {
            #expect(ReplySubject.topicBase(ReplySubject.make(from: subject)) == ReplySubject.topicBase(subject))
        }
    }

    @Test("The base compares subjects of one thread")
    func base() {
        #expect(ReplySubject.base("AW: Re: Plan") == ReplySubject.base("Plan"))
        #expect(ReplySubject.base("[dev] Re: Plan") == "[dev] Plan")
        #expect(ReplySubject.base("Re: [dev] Plan") == "[dev] Plan")
        #expect(ReplySubject.base("Fwd: Plan") == "Fwd: Plan")
        #expect(ReplySubject.base("  Re:  ") == "")
    }
}
