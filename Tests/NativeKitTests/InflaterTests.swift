import CZlib
import NativeKit
import Testing

/// gzip members and zlib streams inflated by ISA-L read as zlib reads them: the same bytes, and the same failure,
/// in zlib's words, when a trailer's CRC-32 or length is wrong, however the compressed bytes are supplied (a
/// header or a trailer split across supplies) and whatever the size of the output buffers.
@Suite("Inflater")
struct InflaterTests {
    /// `bytes` deflated into one gzip member (`windowBits` 31) or a zlib stream (15).
    static func deflated(
        _ bytes: [UInt8], gzip: Bool, level: Int32 = 6, strategy: Int32 = Z_DEFAULT_STRATEGY, windowBits: Int32 = 15
    ) -> [UInt8] {
        var stream = z_stream()
        let version = zlibVersion()
        #expect(
            deflateInit2_(
                &stream, level, Z_DEFLATED, gzip ? windowBits + 16 : windowBits, 8, strategy, version,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        var input = bytes
        let written = input.withUnsafeMutableBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                #expect(deflate(&stream, Z_FINISH) == Z_STREAM_END)
                return target.count - Int(stream.avail_out)
            }
        }
        return Array(out.prefix(written))
    }

    /// What zlib inflates from `compressed` (gzip or zlib, one member) before it fails or the bytes end.
    static func zlibInflated(_ compressed: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        #expect(inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { inflateEnd(&stream) }
        var input = compressed
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while true {
                let (code, produced) = buffer.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    let code = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (code, target.count - Int(stream.avail_out))
                }
                out += buffer.prefix(produced)
                if code != Z_OK { break }
            }
        }
        return out
    }

    /// What the inflater hands out for `compressed` supplied `piece` bytes at a time, read `outputSize` at a time,
    /// and the failure it ends with.
    static func inflate(_ compressed: [UInt8], piece: Int, outputSize: Int = 4096) -> (
        [UInt8], Inflater.Failure?
    ) {
        let inflater = Inflater(inputCapacity: piece)
        var offset = 0
        var out: [UInt8] = []
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: outputSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            if inflater.needsInput {
                let take = min(piece, compressed.count - offset)
                compressed.withUnsafeBytes { source in
                    if let base = source.baseAddress { inflater.input.copyMemory(from: base + offset, byteCount: take) }
                }
                offset += take
                inflater.supply(take)
            }
            do {
                let produced = try inflater.inflate(into: buffer, count: outputSize)
                out += UnsafeRawBufferPointer(start: buffer, count: produced)
                if produced == 0 && inflater.finished { return (out, nil) }
            } catch {
                return (out, error)
            }
        }
    }

    static let text: [UInt8] = {
        var random = Random(seed: 11)
        return (0..<40_000).map { _ in UInt8(0x20 + random.next() % 40) }
    }()

    @Test func membersReadWholeHoweverTheBytesArrive() throws {
        let one = Self.deflated(Self.text, gzip: true)
        let two = one + Self.deflated(Array(Self.text.prefix(999)), gzip: true)
        for piece in [1, 2, 3, 5, 7, 8, 9, 13, 64, 1000, 1 << 16] {
            let (bytes, failure) = Self.inflate(two, piece: piece)
            #expect(failure == nil, "\(piece)")
            #expect(bytes == Self.text + Self.text.prefix(999), "\(piece)")
        }
        // A zlib stream after a gzip member: its Adler-32 is zlib's to check.
        let mixed = one + Self.deflated(Self.text, gzip: false)
        #expect(Self.inflate(mixed, piece: 7).0 == Self.text + Self.text)
        var wrongAdler = mixed
        wrongAdler[wrongAdler.count - 1] ^= 1
        #expect(Self.inflate(wrongAdler, piece: 7).1 == .corrupt("incorrect data check"))
    }

    /// An inflater's state and input come from the shared buffer pool, dirty from whatever inflated in them last:
    /// one made after others that failed or stopped midway still reads its own stream whole.
    @Test func buffersLeftDirtyByAnEarlierInflaterDoNotMatter() throws {
        let member = Self.deflated(Self.text, gzip: true)
        var corrupt = member
        corrupt[member.count / 2] ^= 0x55
        for piece in [9, 4096] {
            #expect(Self.inflate(corrupt, piece: piece).1 != nil, "\(piece)")
            do {
                // Left midway, its input full and its state inside a block; its buffers go back at the block's end.
                let stopped = Inflater(inputCapacity: piece)
                member.withUnsafeBytes { source in
                    if let base = source.baseAddress { stopped.input.copyMemory(from: base, byteCount: piece) }
                }
                stopped.supply(piece)
                let buffer = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
                defer { buffer.deallocate() }
                _ = try stopped.inflate(into: buffer, count: 64)
            }
            let (bytes, failure) = Self.inflate(member + member, piece: piece)
            #expect(failure == nil, "\(piece)")
            #expect(bytes == Self.text + Self.text, "\(piece)")
        }
    }

    @Test func aWrongCheckOrLengthIsZlibsFailure() throws {
        let member = Self.deflated(Self.text, gzip: true)
        for (position, message) in [
            (member.count - 8, "incorrect data check"), (member.count - 5, "incorrect data check"),
            (member.count - 4, "incorrect length check"), (member.count - 1, "incorrect length check"),
        ] {
            var corrupt = member
            corrupt[position] ^= 0x40
            for piece in [1, 3, 8, 9, 4096, 1 << 16] {
                let (bytes, failure) = Self.inflate(corrupt + member, piece: piece)
                #expect(failure == .corrupt(message), "byte \(position), pieces of \(piece)")
                // Every byte inflated before the check is handed out.
                #expect(bytes == Self.text, "byte \(position), pieces of \(piece)")
            }
        }
        let truncated = Array(member.dropLast(3))
        #expect(Self.inflate(truncated, piece: 5).1 == .truncated)
    }

    /// Streams of every kind of block (stored at level 0, fixed codes with `Z_FIXED`, dynamic ones, runs of one
    /// byte with `Z_RLE`, literals only with `Z_HUFFMAN_ONLY`, small windows), of text, repeats and random bytes from
    /// empty to 200 KB, as gzip members and zlib streams, concatenated, read in random supplies into random buffers:
    /// every byte comes back.
    @Test func everyKindOfStreamReadsWhole() {
        var random = Random(seed: 17)
        let strategies = [Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED]
        for round in 0..<60 {
            let size = round < 4 ? round : Int(random.next() % (round % 5 == 0 ? 200_000 : 5_000))
            let kind = random.next() % 3
            let plain: [UInt8] = (0..<size).map { index in
                switch kind {
                case 0: return Self.text[index % Self.text.count]
                case 1: return UInt8(truncatingIfNeeded: index / 97)
                default: return UInt8(truncatingIfNeeded: random.next())
                }
            }
            let level = Int32(random.next() % 10)
            let strategy = random.pick(strategies)
            let windowBits = Int32(9 + random.next() % 7)
            let gzip = round % 4 != 3
            var compressed = Self.deflated(plain, gzip: gzip, level: level, strategy: strategy, windowBits: windowBits)
            var expected = plain
            if gzip && round % 2 == 0 {
                // A second member after it, of the same bytes.
                compressed += Self.deflated(plain, gzip: true, level: level, strategy: strategy)
                expected += plain
            }
            let piece = random.pick([1, 2, 5, 64, 4096, 1 << 16])
            let output = random.pick([1, 13, 4096, 65_536])
            let (bytes, failure) = Self.inflate(compressed, piece: piece, outputSize: output)
            let what = "round \(round): \(size) bytes, level \(level), strategy \(strategy), window \(windowBits)"
            #expect(failure == nil, "\(what), pieces of \(piece), output of \(output)")
            #expect(bytes == expected, "\(what), pieces of \(piece), output of \(output): \(bytes.count) bytes")
        }
    }

    @Test func smallOutputBuffersHandOutEveryByte() {
        let two = Self.deflated(Self.text, gzip: true) + Self.deflated(Array(Self.text.prefix(5_000)), gzip: true)
        for (piece, output) in [(1, 1), (5, 7), (64, 100), (1 << 16, 3), (1000, 65_536)] {
            let (bytes, failure) = Self.inflate(two, piece: piece, outputSize: output)
            #expect(failure == nil, "pieces of \(piece), output of \(output)")
            #expect(bytes == Self.text + Self.text.prefix(5_000), "pieces of \(piece), output of \(output)")
        }
    }

    /// A gzip member whose header holds every optional field (extra, name, comment and its own CRC-16).
    static func fullHeader(headerCRC: UInt16? = nil) -> [UInt8] {
        let member = Self.deflated(Self.text, gzip: true)
        var header: [UInt8] = [0x1F, 0x8B, 8, 0x04 | 0x08 | 0x10 | 0x02, 0, 0, 0, 0, 0, 3]
        header += [5, 0] + Array("extra".utf8)
        header += Array("capture.log".utf8) + [0]
        header += Array("a comment".utf8) + [0]
        let crc = header.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        let check = headerCRC ?? UInt16(truncatingIfNeeded: crc)
        header += [UInt8(check & 0xFF), UInt8(check >> 8)]
        return header + member.dropFirst(10)
    }

    @Test func optionalHeaderFieldsAreReadHoweverTheBytesArrive() {
        let member = Self.fullHeader()
        for piece in [1, 2, 3, 7, 16, 1 << 16] {
            let (bytes, failure) = Self.inflate(member + member, piece: piece)
            #expect(failure == nil, "pieces of \(piece)")
            #expect(bytes == Self.text + Self.text, "pieces of \(piece)")
        }
        let (bytes, failure) = Self.inflate(Self.fullHeader(headerCRC: 0xBEEF), piece: 3)
        #expect(bytes.isEmpty)
        #expect(failure == .corrupt("header crc mismatch"))
    }

    @Test func corruptDataIsAFailureAfterTheBytesBeforeIt() {
        let member = Self.deflated(Self.text, gzip: true)
        // Bytes that are no second member after a whole one: zlib's header check.
        for piece in [1, 4, 1 << 16] {
            let (bytes, failure) = Self.inflate(member + Array("\ntrailing".utf8), piece: piece)
            #expect(bytes == Self.text, "pieces of \(piece)")
            #expect(failure == .corrupt("incorrect header check"), "pieces of \(piece)")
        }
        // Compressed bytes overwritten in the middle: whatever they decode to, a failure ends the data, after the
        // bytes zlib hands out before it, whatever the size of the supplies (ISA-L's fast decoder writes a few more).
        var random = Random(seed: 3)
        for round in 0..<40 {
            var corrupt = member
            let from = 10 + Int(random.next() % UInt64(member.count - 30))
            for index in from..<from + 12 { corrupt[index] = UInt8(truncatingIfNeeded: random.next()) }
            let reference = Self.zlibInflated(corrupt)
            for piece in [1, 7, 4096, 1 << 16] {
                let (bytes, failure) = Self.inflate(corrupt, piece: piece)
                #expect(failure != nil, "round \(round), bytes from \(from), pieces of \(piece)")
                #expect(
                    bytes == reference,
                    "round \(round), bytes from \(from), pieces of \(piece): \(bytes.count) bytes, zlib's \(reference.count)"
                )
            }
        }
        // A second member cut short after a whole one: the same bytes whatever the size of the supplies, those zlib
        // inflates from it but for its last symbol or so (ISA-L decodes a symbol only with the bits of the longest at
        // hand).
        let cut = member + Array(member.prefix(member.count / 2))
        let reference = Self.text + Self.zlibInflated(Array(member.prefix(member.count / 2)))
        let (whole, wholeFailure) = Self.inflate(cut, piece: 1 << 16)
        #expect(wholeFailure == .truncated)
        #expect(
            reference.starts(with: whole) && reference.count - whole.count < 8, "\(whole.count) of \(reference.count)")
        for piece in [1, 7, 1000] {
            let (bytes, failure) = Self.inflate(cut, piece: piece)
            #expect(failure == .truncated && bytes == whole, "pieces of \(piece): \(bytes.count) of \(whole.count)")
        }
    }
}
