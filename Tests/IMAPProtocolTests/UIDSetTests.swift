import Testing

@testable import IMAPProtocol

@Suite struct UIDSetTests {
    @Test func parseAndFormatCanonically() throws {
        #expect(try IMAPUIDSet(parsing: "1:5,7,9:*").description == "1:5,7,9:*")
        #expect(try IMAPUIDSet(parsing: "5:1").description == "1:5")
        #expect(try IMAPUIDSet(parsing: "3,1:2,2").description == "1:3")
        #expect(try IMAPUIDSet(parsing: "*:4").description == "4:*")
        #expect(try IMAPUIDSet(parsing: "*,9:*,2,9:*").description == "2,9:*,*")
        #expect(try IMAPUIDSet(parsing: "4294967295,4294967294").description == "4294967294:4294967295")
        #expect(try IMAPUIDSet(parsing: "1:3,7") == IMAPUIDSet([7, 3, 2, 1]))
    }

    @Test(arguments: ["", "0", "1:", ",", "1,,2", "a", "4294967296", "1::2", "1:2:3", " 1", "-1"])
    func invalidSetsAreRejected(_ text: String) {
        #expect(throws: IMAPProtocolError.self) { try IMAPUIDSet(parsing: text) }
    }

    @Test func coalescesUIDs() {
        let set = IMAPUIDSet([5, 1, 2, 3, 9, 7, 4, 4])
        #expect(set.description == "1:5,7,9")
        #expect(set.uids == [1, 2, 3, 4, 5, 7, 9])
        #expect(set.isBounded && set.boundedCount == 7)
        #expect(IMAPUIDSet([UInt32]()).isEmpty)
    }

    @Test func openRanges() {
        let open = IMAPUIDSet.from(uid: 10)
        #expect(open.description == "10:*")
        #expect(!open.isBounded && open.uids.isEmpty)
        #expect(open.contains(10) && open.contains(UInt32.max) && !open.contains(9))
        #expect(open.uids(resolvingStarAs: 12) == [10, 11, 12])
        #expect(open.uids(resolvingStarAs: 8) == [8, 9, 10])
        let mixed = IMAPUIDSet(ranges: [.init(lowerBound: 2, upperBound: 3), .init(lowerBound: 20, upperBound: nil)])
        #expect(mixed.uids == [2, 3])
        #expect(mixed.contains(2) && !mixed.contains(4) && mixed.contains(25))
    }

    @Test func chunks() {
        let chunks = IMAPUIDSet.chunked([10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 3], maxCount: 3)
        #expect(chunks.map(\.description) == ["1:3", "4:6", "7:9", "10"])
        #expect(IMAPUIDSet.chunked([UInt32](), maxCount: 3).isEmpty)
        #expect(IMAPUIDSet.chunked([5, 100, 7], maxCount: 0).map(\.description) == ["5", "7", "100"])
        var random = SplitMix64(state: 5)
        let uids = (0..<1000).map { _ in UInt32(random.next(5000)) + 1 }
        let sized = IMAPUIDSet.chunked(uids, maxCount: 64)
        #expect(sized.allSatisfy { $0.boundedCount <= 64 })
        #expect(sized.flatMap(\.uids) == Array(Set(uids)).sorted())
    }
}
