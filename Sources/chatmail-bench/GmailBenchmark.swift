import ArgumentParser
import Foundation
import GmailAPI
import GmailEmulator

/// `chatmail-bench gmail`: the client's quota pacing and fetch rate against the local emulator.
struct GmailBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gmail",
        abstract: "Paced messages.get against the emulator's 250 units/s quota, and the unthrottled batch fetch rate.")

    @Option(help: "Synthetic messages in the emulator's mailbox.") var messages = 3_000
    @Option(help: "The quota the emulator enforces, in units per second.") var quota = 250.0
    @Option(help: "Concurrent requests for the paced fetch.") var concurrency = 8

    func run() async throws {
        // 1. Paced: the emulator enforces the quota; the client's pacer should keep just under it.
        var paced = EmulatorConfiguration()
        paced.mailbox = .synthetic(count: messages)
        paced.quotaUnitsPerSecond = quota
        paced.seed = 7
        let emulator = try await EmulatorServer.start(paced)
        let pacedResult: (seconds: Double, stats: QuotaLedger.Stats)
        do {
            let client = Self.client(
                emulator,
                pacer: QuotaPacer(
                    configuration: .init(ceiling: quota), sleeper: ContinuousSleeper(), initialBalance: 0))
            let ids = try await client.listAllMessages().map(\.id)
            await emulator.quota.reset()
            let start = ContinuousClock.now
            // A fixed-width worker pool: each worker takes the next id until none are left.
            let queue = IDQueue(ids)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<concurrency {
                    group.addTask {
                        while let id = await queue.next() { _ = try await client.getMessage(id: id, format: .full) }
                    }
                }
                try await group.waitForAll()
            }
            pacedResult = ((ContinuousClock.now - start).seconds, await emulator.quota.current)
        } catch {
            await emulator.shutdown()
            throw error
        }
        await emulator.shutdown()
        let boundRate = quota / 5  // messages.get costs 5 units
        let achieved = Double(messages) / pacedResult.seconds
        let share429 = Double(pacedResult.stats.rateLimited) / Double(max(1, pacedResult.stats.requests))
        print(
            "paced messages.get: \(messages) messages in \(String(format: "%.2f", pacedResult.seconds)) s = \(String(format: "%.1f", achieved)) messages/s; quota-bound \(String(format: "%.0f", boundRate))/s; ratio \(String(format: "%.3f", achieved / boundRate)); 429s \(pacedResult.stats.rateLimited) of \(pacedResult.stats.requests) requests (\(String(format: "%.2f", share429 * 100))%)"
        )

        // 2. Unthrottled: no quota, no pacing, batched messages.get.
        var open = EmulatorConfiguration()
        open.mailbox = .synthetic(count: messages)
        open.seed = 7
        let fast = try await EmulatorServer.start(open)
        do {
            let client = Self.client(fast, pacer: QuotaPacer.unlimited())
            let ids = try await client.listAllMessages().map(\.id)
            let start = ContinuousClock.now
            let results = try await client.getMessages(ids: ids, format: .full)
            let seconds = (ContinuousClock.now - start).seconds
            let failures = results.values.filter { if case .failure = $0 { true } else { false } }.count
            print(
                "unthrottled batch fetch: \(ids.count) messages in \(String(format: "%.2f", seconds)) s = \(Int(Double(ids.count) / seconds)) messages/s (\(failures) failures)"
            )
        } catch {
            await fast.shutdown()
            throw error
        }
        await fast.shutdown()
    }

    static func client(_ emulator: RunningEmulator, pacer: QuotaPacer) -> GmailClient {
        GmailClient(
            configuration: .init(baseURL: URL(string: emulator.baseURL)!, batchPath: "/batch/gmail/v1"),
            transport: URLSessionTransport(), tokens: StaticTokenSource(token: "emu-static-token"), pacer: pacer)
    }
}

/// Hands out ids to workers, each once.
actor IDQueue {
    private var ids: [String]
    private var index = 0

    init(_ ids: [String]) { self.ids = ids }

    func next() -> String? {
        guard index < ids.count else { return nil }
        defer { index += 1 }
        return ids[index]
    }
}
