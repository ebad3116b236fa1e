import Foundation

/// One run of a command-line tool (`doveadm`) to its end, with its input written and both outputs read
/// on threads of their own: a tool that fills one pipe while this side waits on the other would block
/// both forever.
struct ToolRun: Sendable {
    let status: Int32
    let output: Data
    let errors: Data

    static func run(_ executable: String, _ arguments: [String], input: [UInt8]? = nil) throws(DovecotError) -> ToolRun
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let inputPipe = Pipe()
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        do { try process.run() } catch {
            throw .commandFailed(arguments: arguments, status: -1, stderr: "cannot run \(executable): \(error)")
        }
        let errorReader = PipeReader(draining: errorPipe)
        if let input {
            let handle = inputPipe.fileHandleForWriting
            Thread.detachNewThread {
                // A tool that exits without reading all of its input closes the pipe; the write then fails,
                // and its exit status says why.
                do { try handle.write(contentsOf: input) } catch {}
                do { try handle.close() } catch {}
            }
        }
        let output = outputPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ToolRun(status: process.terminationStatus, output: output, errors: errorReader.finished())
    }
}

/// Reads a pipe to its end on a thread of its own.
final class PipeReader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(draining pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Waits for the end of the stream and returns all of it; `data` is written only before `done` is
    /// signalled, so reading it after the wait is safe.
    func finished() -> Data {
        done.wait()
        done.signal()
        return data
    }
}

/// The last `limit` bytes of a file as text, or an empty string when it does not exist yet.
func fileTail(_ url: URL, limit: Int = 4096) -> String {
    guard let handle = FileHandle(forReadingAtPath: url.path) else { return "" }
    defer { handle.closeFile() }
    let size = handle.seekToEndOfFile()
    handle.seek(toFileOffset: size > UInt64(limit) ? size - UInt64(limit) : 0)
    return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
}
