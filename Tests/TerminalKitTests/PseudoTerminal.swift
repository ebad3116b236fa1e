import Foundation
import Testing

/// A pseudo-terminal pair for testing `RawTerminal` against the kernel's real terminal driver: the code
/// under test gets the slave, the test plays the terminal emulator on the master.
final class PseudoTerminal {
    let master: Int32
    let slave: Int32

    init() throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        try #require(openpty(&master, &slave, nil, nil, nil) == 0)
        self.master = master
        self.slave = slave
    }

    deinit {
        close(slave)
        closeMaster()
    }

    private var masterOpen = true

    /// Hangs up the terminal: reads on the slave then fail with EIO.
    func closeMaster() {
        if masterOpen { close(master) }
        masterOpen = false
    }

    /// Types `text` as the terminal would send it.
    func type(_ text: String) {
        var bytes = Array(text.utf8)
        #expect(write(master, &bytes, bytes.count) == bytes.count)
    }

    /// What the program writes to the screen, read until `done` holds; fails after ten seconds.
    func readScreen(until done: (String) -> Bool) -> String {
        readFrom(master, until: done)
    }

    /// What reaches the program's side of the terminal, read until `done` holds; fails after ten seconds.
    func readSlave(until done: (String) -> Bool) -> String {
        readFrom(slave, until: done)
    }

    private func readFrom(_ fd: Int32, until done: (String) -> Bool) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(10)
        while !done(String(decoding: received, as: UTF8.self)) {
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard remaining > 0, poll(&descriptor, 1, remaining) > 0 else {
                Issue.record("timed out; got \(String(decoding: received, as: UTF8.self).debugDescription)")
                break
            }
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Everything the program wrote before a marker the test writes to the slave itself: with the marker
    /// last in the queue, reading up to it shows whether anything else was written, without waiting.
    func screenOutputSoFar() -> String {
        var marker = Array("<mark>".utf8)
        #expect(write(slave, &marker, marker.count) == marker.count)
        let text = readScreen { $0.hasSuffix("<mark>") }
        return String(text.dropLast("<mark>".count))
    }

    func setSize(columns: Int, rows: Int) {
        var window = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        #expect(ioctl(master, UInt(TIOCSWINSZ), &window) == 0)
    }

    func slaveSettings() -> termios {
        var settings = termios()
        #expect(tcgetattr(slave, &settings) == 0)
        return settings
    }
}

/// Whether two terminal settings are identical byte for byte.
func sameSettings(_ lhs: termios, _ rhs: termios) -> Bool {
    withUnsafeBytes(of: lhs) { left in withUnsafeBytes(of: rhs) { right in left.elementsEqual(right) } }
}
