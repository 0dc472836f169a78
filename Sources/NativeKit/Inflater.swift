import CSIMD
import CZlib

/// Streaming gzip (and zlib) decompression with zlib's inflate: compressed bytes in, plain bytes out, one
/// buffer each way, so a capture of any size inflates in constant memory. Concatenated gzip members (what
/// `cat a.gz b.gz` and log rotators write) are read one after the other.
///
/// A gzip member's check (the CRC-32 of what it inflates to, and its length) is worked out here with carry-less
/// multiplication (``csimd_crc32``) where the processor has it, zlib's own check turned off (`inflateValidate`):
/// zlib's table walk was a quarter of the time a compressed capture took to inflate. The trailer it is compared
/// with is the eight bytes before where inflate stopped, the first of them perhaps in the buffer supplied before.
/// (zlib's check of a header's own CRC-16, a flag gzip does not set, goes with its check; a zlib stream keeps its.)
public final class Inflater {
    /// Why the data could not be inflated.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The bytes are not valid gzip data (corrupt, or not gzip at all past the magic number).
        case corrupt(String)
        /// The data ends before the gzip stream does (a truncated download or copy).
        case truncated
        /// zlib could not start (out of memory).
        case cannotStart(Int32)

        public var description: String {
            switch self {
            case .corrupt(let reason): return "not valid gzip data (\(reason))"
            case .truncated: return "gzip data ends early (the file is truncated)"
            case .cannotStart(let code): return "zlib could not start (error \(code))"
            }
        }
    }

    /// Whether `bytes` start with gzip's magic number (1f 8b).
    public static func isGzip(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    private var stream = z_stream()
    /// Where compressed bytes are supplied (``input``), ``inputCapacity`` bytes.
    public let input: UnsafeMutableRawPointer
    public let inputCapacity: Int
    /// The compressed input has ended (``supply(_:)`` was given 0).
    private var inputEnded = false
    /// The last member ended and no byte follows it.
    public private(set) var finished = false
    /// A member ended: the next bytes, if any, start a new one.
    private var memberEnded = false
    /// The data went bad after bytes that a call handed out: thrown by the next call, so the bytes inflated before
    /// the fault are all handed out whatever the size of the output buffers.
    private var failure: Failure?

    /// The next call starts a member: it decides whose check the member's is.
    private var memberStarts = true
    /// The member is gzip's and its check is worked out here (zlib's is off): the CRC-32 and length (modulo
    /// 2³²) of what it inflated to so far.
    private var checking = false
    private var check: UInt32 = 0
    private var length: UInt32 = 0
    /// How many bytes the last ``supply(_:)`` gave, until inflate has taken them all; then their last eight are
    /// kept in ``before`` (a member's trailer may begin in them).
    private var supplied = 0
    private var before = [UInt8](repeating: 0, count: 8)
    /// Whether the CRC-32 here is faster than zlib's (on x86-64 with PCLMULQDQ, and AArch64 builds with the CRC
    /// instructions).
    private static let checksHere = csimd_crc32_available() != 0

    public init(inputCapacity: Int = 256 * 1024) throws(Failure) {
        self.inputCapacity = inputCapacity
        input = UnsafeMutableRawPointer.allocate(byteCount: inputCapacity, alignment: 16)
        // 15 + 32: a 32 KiB window, gzip or zlib header detected automatically.
        let code = czlib_inflate_init(&stream, 15 + 32)
        guard code == Z_OK else {
            input.deallocate()
            throw .cannotStart(code)
        }
    }

    deinit {
        inflateEnd(&stream)
        input.deallocate()
    }

    /// Hands over `count` compressed bytes written at ``input``; 0 says the compressed data has ended.
    public func supply(_ count: Int) {
        if count == 0 { inputEnded = true }
        stream.next_in = input.assumingMemoryBound(to: Bytef.self)
        stream.avail_in = uInt(count)
        supplied = count
    }

    /// True when ``inflate(into:count:)`` returned 0 because it needs compressed bytes (``supply(_:)``).
    public var needsInput: Bool { !finished && stream.avail_in == 0 && !inputEnded }

    /// Inflates up to `count` bytes into `output`; 0 means it needs input (``needsInput``) or the data ended
    /// (``finished``).
    public func inflate(into output: UnsafeMutableRawPointer, count: Int) throws(Failure) -> Int {
        if let failure { throw failure }
        guard !finished else { return 0 }
        if stream.avail_in == 0 {
            guard inputEnded else { return 0 }
            if memberEnded {
                finished = true
                return 0
            }
            throw .truncated
        }
        if memberEnded {
            // Another member follows the one that ended.
            guard inflateReset(&stream) == Z_OK else { throw .corrupt("cannot start the next member") }
            memberEnded = false
            memberStarts = true
        }
        if memberStarts {
            // gzip's magic number starts with 0x1F; a zlib stream's first byte never does (its method would be 15).
            memberStarts = false
            checking = Self.checksHere && stream.next_in.pointee == 0x1F
            guard inflateValidate(&stream, checking ? 0 : 1) == Z_OK else { throw .corrupt("cannot start") }
            check = 0
            length = 0
        }
        stream.next_out = output.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = uInt(count)
        let code = CZlib.inflate(&stream, Z_NO_FLUSH)
        let produced = count - Int(stream.avail_out)
        if checking && produced > 0 {
            check = csimd_crc32(check, output.assumingMemoryBound(to: UInt8.self), produced)
            length &+= UInt32(truncatingIfNeeded: produced)
        }
        var reason: String?
        switch code {
        case Z_OK, Z_BUF_ERROR:
            break
        case Z_STREAM_END:
            // zlib's words, in the order it checks.
            if checking { reason = trailerMatches() }
            if reason == nil {
                memberEnded = true
                if stream.avail_in == 0, inputEnded { finished = true }
            }
        default:
            reason = stream.msg.map { String(cString: $0) } ?? "zlib error \(code)"
        }
        keepLastBytes()
        guard let reason else { return produced }
        guard produced > 0 else { throw .corrupt(reason) }
        failure = .corrupt(reason)
        return produced
    }

    /// nil when the member's trailer (CRC-32, then length, little-endian) holds what it inflated to; else what
    /// zlib says when its own check fails.
    private func trailerMatches() -> String? {
        let consumed = input.assumingMemoryBound(to: UInt8.self).distance(to: stream.next_in)
        func word(_ offset: Int) -> UInt32 {
            var value: UInt32 = 0
            for index in (offset..<offset + 4).reversed() {
                let position = consumed - 8 + index
                let byte = position >= 0 ? input.load(fromByteOffset: position, as: UInt8.self) : before[8 + position]
                value = value << 8 | UInt32(byte)
            }
            return value
        }
        if word(0) != check { return "incorrect data check" }
        if word(4) != length { return "incorrect length check" }
        return nil
    }

    /// Once inflate has taken every byte supplied, keeps their last eight (after those kept before).
    private func keepLastBytes() {
        guard stream.avail_in == 0, supplied > 0 else { return }
        let kept = min(supplied, 8)
        if kept < 8 { before.replaceSubrange(0..<8 - kept, with: before[kept...]) }
        for index in 0..<kept {
            before[8 - kept + index] = input.load(fromByteOffset: supplied - kept + index, as: UInt8.self)
        }
        supplied = 0
    }
}
