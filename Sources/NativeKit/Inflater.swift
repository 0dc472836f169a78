import CZlib

/// Streaming gzip (and zlib) decompression with zlib's inflate: compressed bytes in, plain bytes out, one
/// buffer each way, so a capture of any size inflates in constant memory. Concatenated gzip members (what
/// `cat a.gz b.gz` and log rotators write) are read one after the other.
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
        }
        stream.next_out = output.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = uInt(count)
        let code = CZlib.inflate(&stream, Z_NO_FLUSH)
        let produced = count - Int(stream.avail_out)
        switch code {
        case Z_OK, Z_BUF_ERROR:
            return produced
        case Z_STREAM_END:
            memberEnded = true
            if stream.avail_in == 0, inputEnded { finished = true }
            return produced
        default:
            let reason = stream.msg.map { String(cString: $0) } ?? "zlib error \(code)"
            guard produced > 0 else { throw .corrupt(reason) }
            failure = .corrupt(reason)
            return produced
        }
    }
}
