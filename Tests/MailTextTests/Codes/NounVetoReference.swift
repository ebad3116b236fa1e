@testable import MailText

/// The noun-veto check as the detector wrote it before its byte prefilter: a character search for each
/// veto. This file imports no Foundation, like the detector, so `contains` is the standard library's.
func referenceHasNounVeto(_ words: String) -> Bool {
    CodePhrases.nounVetoes.contains { words.contains($0) }
}
