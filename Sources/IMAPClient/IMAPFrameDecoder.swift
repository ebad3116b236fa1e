import IMAPProtocol
import NIOCore

/// One complete response as the framer cut it, and how many bytes the framer still holds after it.
///
/// The count lets the channel handler refuse plain-text bytes that follow a STARTTLS `OK`: they were
/// sent before TLS and could be an attacker's injection.
struct IMAPInboundFrame {
    var bytes: [UInt8]
    var bufferedAfter: Int
}

/// Bytes arrived from the server: sent up the pipeline before the frames they complete, so the handler
/// measures inactivity by bytes received, not by responses completed (a 50 MB literal is one frame).
struct IMAPBytesReceived {}

/// The connection closed while the framer held part of a response (in the middle of a literal, say).
struct IMAPTruncatedResponse: Error {
    var bufferedByteCount: Int
}

/// Cuts the server's byte stream into responses with ``IMAPResponseFramer``.
///
/// Every read is moved into the framer whole, so NIO's own buffer is always empty after `decode`: the
/// framer is the only place that holds unframed bytes.
struct IMAPFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = IMAPInboundFrame

    private var framer = IMAPResponseFramer()

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard buffer.readableBytes > 0 else { return .needMoreData }
        context.fireUserInboundEventTriggered(IMAPBytesReceived())
        buffer.withUnsafeReadableBytes { framer.append($0) }
        buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        while let frame = try framer.nextFrame() {
            let inbound = IMAPInboundFrame(bytes: frame, bufferedAfter: framer.bufferedByteCount)
            context.fireChannelRead(wrapInboundOut(inbound))
        }
        return .needMoreData
    }

    mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        _ = try decode(context: context, buffer: &buffer)
        if seenEOF, framer.bufferedByteCount > 0 {
            throw IMAPTruncatedResponse(bufferedByteCount: framer.bufferedByteCount)
        }
        return .needMoreData
    }
}
