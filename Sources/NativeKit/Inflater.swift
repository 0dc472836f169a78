import CIsal

/// Streaming gzip (and zlib) decompression with ISA-L's inflate (`isal_inflate`): compressed bytes in, plain bytes
/// out, one buffer each way, so a capture of any size inflates in constant memory. Concatenated gzip members (what
/// `cat a.gz b.gz` and log rotators write) are read one after the other, and a zlib stream among them.
///
/// ISA-L decodes with vector instructions where the processor has them and works out each member's check (gzip's
/// CRC-32, zlib's Adler-32) as it goes: 2.3–2.4 times zlib's speed on this project's captures. A failed check is
/// told in zlib's words: the trailer, the eight bytes before where a member ended, is read again here to tell a
/// wrong CRC-32 (`incorrect data check`) from a wrong length (`incorrect length check`).
public final class Inflater {
    /// Why the data could not be inflated.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The bytes are not valid gzip data (corrupt, or not gzip at all past the magic number).
        case corrupt(String)
        /// The data ends before the gzip stream does (a truncated download or copy).
        case truncated

        public var description: String {
            switch self {
            case .corrupt(let reason): return "not valid gzip data (\(reason))"
            case .truncated: return "gzip data ends early (the file is truncated)"
            }
        }
    }

    /// Whether `bytes` start with gzip's magic number (1f 8b).
    public static func isGzip(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// ISA-L's state (its tables and a window of 64 KiB and more: on the heap, not in the object).
    private let state: UnsafeMutablePointer<inflate_state>
    /// The state as it was before the last call to `isal_inflate` (87 KB, copied once a call, that is once a chunk
    /// or a supply): a fault is found again from it, a few bytes at a time (``careful()``).
    private let snapshot: UnsafeMutablePointer<inflate_state>
    /// A gzip header being read: its fields' progress kept from one call to the next (`isal_inflate` reads a header
    /// with a new one each call, and loses the optional fields of a header that spans two supplies).
    private var gzipHeader = isal_gzip_header()
    /// Where compressed bytes are supplied (``input``), ``inputCapacity`` bytes.
    public let input: UnsafeMutableRawPointer
    public let inputCapacity: Int
    /// The compressed input has ended (``supply(_:)`` was given 0).
    private var inputEnded = false
    /// The last member ended and no byte follows it.
    public private(set) var finished = false
    /// A member ended: the next bytes, if any, start a new one.
    private var memberEnded = false
    /// The next call starts a member: its first byte says whose it is (gzip's magic number starts with 0x1F; a
    /// zlib stream's first byte never does, its method would be 15).
    private var memberStarts = true
    /// The member's header is being read.
    private var readingHeader = false
    /// The member is gzip's (else a zlib stream).
    private var gzip = false
    /// A zlib stream's header bytes read so far (two in all), the first in the high byte.
    private var zlibHeader: UInt16 = 0
    private var zlibHeaderCount = 0
    /// The length (modulo 2³²) of what the member inflated to so far.
    private var length: UInt32 = 0
    /// The data went bad: thrown once the bytes inflated before the fault are all handed out (ISA-L may hold some in
    /// its own buffer), whatever the size of the supplies and of the output buffers.
    private var failure: Failure?
    /// How many bytes the last ``supply(_:)`` gave, until inflate has taken them all; then their last eight are
    /// kept in ``before`` (a member's trailer may begin in them).
    private var supplied = 0
    private var before = [UInt8](repeating: 0, count: 8)

    /// The buffers come from ``BufferPool/shared`` and go back to it: a batch of gzipped captures inflates each in
    /// the same pages (made afresh, the state's were read by the snapshot's copy before inflate first wrote them,
    /// a fault and, with two jobs, a TLB flush on both cores for each of them).
    public init(inputCapacity: Int = 256 * 1024) {
        self.inputCapacity = inputCapacity
        let pool = BufferPool.shared
        input = pool.take(inputCapacity)
        state = pool.take(Self.stateBytes).bindMemory(to: inflate_state.self, capacity: 1)
        snapshot = pool.take(Self.stateBytes).bindMemory(to: inflate_state.self, capacity: 1)
        isal_inflate_init(state)
    }

    deinit {
        let pool = BufferPool.shared
        pool.give(UnsafeMutableRawPointer(state), Self.stateBytes)
        pool.give(UnsafeMutableRawPointer(snapshot), Self.stateBytes)
        pool.give(input, inputCapacity)
    }

    private static let stateBytes = MemoryLayout<inflate_state>.stride

    /// Hands over `count` compressed bytes written at ``input``; 0 says the compressed data has ended.
    public func supply(_ count: Int) {
        if count == 0 { inputEnded = true }
        state.pointee.next_in = input.assumingMemoryBound(to: UInt8.self)
        state.pointee.avail_in = UInt32(count)
        supplied = count
    }

    /// True when ``inflate(into:count:)`` returned 0 because it needs compressed bytes (``supply(_:)``).
    public var needsInput: Bool { !finished && failure == nil && state.pointee.avail_in == 0 && !inputEnded }

    /// Inflates up to `count` bytes into `output`; 0 means it needs input (``needsInput``) or the data ended
    /// (``finished``).
    public func inflate(into output: UnsafeMutableRawPointer, count: Int) throws(Failure) -> Int {
        let out = output.assumingMemoryBound(to: UInt8.self)
        if let failure {
            let pending = Int(cisal_take_pending(state, out, UInt32(clamping: count)))
            guard pending == 0 else { return pending }
            throw failure
        }
        guard !finished else { return 0 }
        if memberEnded {
            guard state.pointee.avail_in > 0 else {
                if inputEnded { finished = true }
                return 0
            }
            // Another member follows the one that ended (the bytes supplied after it are kept).
            isal_inflate_reset(state)
            memberEnded = false
            memberStarts = true
        }
        if memberStarts {
            guard state.pointee.avail_in > 0 else {
                if inputEnded { throw .truncated }
                return 0
            }
            memberStarts = false
            readingHeader = true
            gzip = state.pointee.next_in.pointee == 0x1F
            isal_gzip_header_init(&gzipHeader)
            (zlibHeader, zlibHeaderCount) = (0, 0)
            length = 0
        }
        if readingHeader {
            let reason = readHeader()
            keepLastBytes()
            if let reason { throw .corrupt(reason) }
            if readingHeader {
                if state.pointee.avail_in == 0 && inputEnded { throw .truncated }
                return 0
            }
        }
        let availableBefore = state.pointee.avail_in
        state.pointee.next_out = out
        state.pointee.avail_out = UInt32(clamping: count)
        snapshot.update(from: state, count: 1)
        var code = isal_inflate(state)
        if code == ISAL_INVALID_BLOCK || code == ISAL_INVALID_SYMBOL || code == ISAL_INVALID_LOOKBACK {
            code = careful()
        }
        let produced = Int(UInt32(clamping: count) - state.pointee.avail_out)
        length &+= UInt32(truncatingIfNeeded: produced)
        var reason: String?
        if code == ISAL_DECOMP_OK {
            if cisal_member_finished(state) != 0 {
                memberEnded = true
                if state.pointee.avail_in == 0, inputEnded { finished = true }
            } else if produced == 0, state.pointee.avail_in == availableBefore {
                // No progress: with no byte left to give, the member is cut short if nothing more comes (what ISA-L
                // holds did not finish it); with bytes left, which it always takes, it would only loop.
                if availableBefore > 0 {
                    reason = "inflate made no progress"
                } else if inputEnded {
                    keepLastBytes()
                    throw .truncated
                }
            }
        } else {
            reason = dataReason(code)
        }
        keepLastBytes()
        guard let reason else { return produced }
        failure = .corrupt(reason)
        guard produced > 0 else { return try inflate(into: output, count: count) }
        return produced
    }

    /// The call that met a fault in the deflate data made again from ``snapshot``, with at most four compressed
    /// bytes at hand each time: with more, ISA-L's fast decoder writes a few bytes of the symbols it finds bad before
    /// it says so (3 to 8 on this project's corrupt captures), with fewer it decodes a symbol at a time and hands out
    /// what zlib does, so what comes before a fault does not depend on how the bytes arrive. Returns ISA-L's code.
    private func careful() -> Int32 {
        state.update(from: snapshot, count: 1)
        var left = state.pointee.avail_in
        var code = ISAL_DECOMP_OK
        while true {
            let piece = min(left, 4)
            state.pointee.avail_in = piece
            let room = state.pointee.avail_out
            code = isal_inflate(state)
            let taken = piece - state.pointee.avail_in
            left -= taken
            if code != ISAL_DECOMP_OK || cisal_member_finished(state) != 0 { break }
            // No byte taken and none written: the call cannot go on (out of bytes, or of room) before the fault the
            // fast decoder met, which the next call meets again.
            if taken == 0 && room == state.pointee.avail_out { break }
        }
        state.pointee.avail_in = left
        return code
    }

    /// Reads on in the member's header: gzip's (through ISA-L, its fields kept in ``gzipHeader``) or a zlib stream's
    /// two bytes (here, checked in zlib's order). Clears ``readingHeader`` once it is read; the failure, in zlib's
    /// words, when it is bad.
    private func readHeader() -> String? {
        if gzip {
            switch isal_read_gzip_header(state, &gzipHeader) {
            case ISAL_DECOMP_OK:
                readingHeader = false
                state.pointee.crc_flag = UInt32(ISAL_GZIP)
                return nil
            case ISAL_END_INPUT: return nil
            case ISAL_INCORRECT_CHECKSUM: return "header crc mismatch"
            case ISAL_UNSUPPORTED_METHOD: return "unknown compression method"
            default: return "incorrect header check"
            }
        }
        while zlibHeaderCount < 2, state.pointee.avail_in > 0 {
            zlibHeader = zlibHeader << 8 | UInt16(state.pointee.next_in.pointee)
            zlibHeaderCount += 1
            state.pointee.next_in += 1
            state.pointee.avail_in -= 1
        }
        guard zlibHeaderCount == 2 else { return nil }
        if zlibHeader % 31 != 0 { return "incorrect header check" }
        if zlibHeader >> 8 & 0x0F != 8 { return "unknown compression method" }
        if zlibHeader >> 12 > 7 { return "invalid window size" }
        if zlibHeader & 0x20 != 0 { return "a preset dictionary is needed" }
        readingHeader = false
        cisal_header_done(state)
        state.pointee.crc_flag = UInt32(ISAL_ZLIB)
        return nil
    }

    /// What zlib says of the failure ISA-L returned as `code` in a member's data or trailer.
    private func dataReason(_ code: Int32) -> String {
        switch code {
        case ISAL_INCORRECT_CHECKSUM: return trailerReason()
        case ISAL_INVALID_BLOCK: return "invalid block"
        case ISAL_INVALID_SYMBOL: return "invalid code"
        case ISAL_INVALID_LOOKBACK: return "invalid distance too far back"
        default: return "ISA-L error \(code)"
        }
    }

    /// Why a member's check failed, in zlib's words, in the order zlib checks: a zlib stream's Adler-32, or the gzip
    /// trailer (CRC-32, then length, little-endian) read from the eight bytes before where inflate stopped, the first
    /// of them perhaps supplied before.
    private func trailerReason() -> String {
        guard gzip else { return "incorrect data check" }
        let consumed = input.assumingMemoryBound(to: UInt8.self).distance(to: state.pointee.next_in)
        func word(_ offset: Int) -> UInt32 {
            var value: UInt32 = 0
            for index in (offset..<offset + 4).reversed() {
                let position = consumed - 8 + index
                let byte = position >= 0 ? input.load(fromByteOffset: position, as: UInt8.self) : before[8 + position]
                value = value << 8 | UInt32(byte)
            }
            return value
        }
        if word(0) != state.pointee.crc { return "incorrect data check" }
        return word(4) != length ? "incorrect length check" : "incorrect data check"
    }

    /// Once inflate has taken every byte supplied, keeps their last eight (after those kept before).
    private func keepLastBytes() {
        guard state.pointee.avail_in == 0, supplied > 0 else { return }
        let kept = min(supplied, 8)
        if kept < 8 { before.replaceSubrange(0..<8 - kept, with: before[kept...]) }
        for index in 0..<kept {
            before[8 - kept + index] = input.load(fromByteOffset: supplied - kept + index, as: UInt8.self)
        }
        supplied = 0
    }
}
