import CSIMD
import CZlib
import NativeKit
import Testing

/// gzip members checked by the inflater itself (``csimd_crc32``, zlib's check off) read as zlib read them: the same
/// bytes, and the same failure, in zlib's words, when a trailer's CRC-32 or length is wrong, however the compressed
/// bytes are supplied (a trailer split across two supplies).
@Suite("Inflater")
struct InflaterTests {
    /// `bytes` deflated into one gzip member (`windowBits` 31) or a zlib stream (15).
    static func deflated(_ bytes: [UInt8], gzip: Bool) -> [UInt8] {
        var stream = z_stream()
        let version = zlibVersion()
        #expect(
            deflateInit2_(
                &stream, 6, Z_DEFLATED, gzip ? 31 : 15, 8, Z_DEFAULT_STRATEGY, version,
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

    /// What the inflater hands out for `compressed` supplied `piece` bytes at a time, read `outputSize` at a time,
    /// and the failure it ends with.
    static func inflate(_ compressed: [UInt8], piece: Int, outputSize: Int = 4096) throws -> (
        [UInt8], Inflater.Failure?
    ) {
        let inflater = try Inflater(inputCapacity: piece)
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
            let (bytes, failure) = try Self.inflate(two, piece: piece)
            #expect(failure == nil, "\(piece)")
            #expect(bytes == Self.text + Self.text.prefix(999), "\(piece)")
        }
        // A zlib stream after a gzip member: its Adler-32 is zlib's to check.
        let mixed = one + Self.deflated(Self.text, gzip: false)
        #expect(try Self.inflate(mixed, piece: 7).0 == Self.text + Self.text)
        var wrongAdler = mixed
        wrongAdler[wrongAdler.count - 1] ^= 1
        #expect(try Self.inflate(wrongAdler, piece: 7).1 == .corrupt("incorrect data check"))
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
                let (bytes, failure) = try Self.inflate(corrupt + member, piece: piece)
                #expect(failure == .corrupt(message), "byte \(position), pieces of \(piece)")
                // Every byte inflated before the check is handed out.
                #expect(bytes == Self.text, "byte \(position), pieces of \(piece)")
            }
        }
        let truncated = Array(member.dropLast(3))
        #expect(try Self.inflate(truncated, piece: 5).1 == .truncated)
    }

    @Test func theCheckIsZlibs() {
        var random = Random(seed: 5)
        for length in [0, 1, 15, 16, 63, 64, 65, 127, 128, 1000, 4099, 70_001] {
            var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let zlib = bytes.withUnsafeMutableBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
            let here = bytes.withUnsafeBufferPointer { csimd_crc32(0, $0.baseAddress, $0.count) }
            #expect(here == zlib, "\(length) bytes")
        }
    }
}
