import Dispatch
import NativeKit

/// Work on many items spread over threads, with results used in item order: a batch report renders its processes
/// on every core while they are written out one after another, a window at a time so memory stays bounded.
enum OrderedParallel {
    /// Calls `transform` for every index of `0..<count` on up to `jobs` threads, `window` indices at a time, and
    /// `sink` with each result in index order (on the calling thread). One job does it all on the calling thread.
    static func forEach<Result: Sendable>(
        count: Int, jobs: Int, window: Int = 512, _ transform: @Sendable (Int) -> Result,
        sink: (Result) throws -> Void
    ) rethrows {
        guard jobs > 1, count > 1 else {
            for index in 0..<count { try sink(transform(index)) }
            return
        }
        var start = 0
        while start < count {
            let size = min(window, count - start)
            let slots = Slots<Result>(count: size)
            let first = start
            // Each thread takes the next index as it gets free (not a fixed share): a thread the system holds back
            // (the reports rendered ahead run beside this one) leaves the others its share instead of being waited
            // for at the end of the window.
            let counter = Counter()
            DispatchQueue.concurrentPerform(iterations: min(jobs, size)) { _ in
                while let offset = counter.next(below: size) {
                    slots.store(transform(first + offset), at: offset)
                }
            }
            for offset in 0..<size { try sink(slots.take(offset)) }
            start += size
        }
    }

    /// Writes `head`, the text of each piece of `0..<count` (made by `piece` on up to `jobs` threads) and `tail` to
    /// `sink` in order, in chunks of about `chunkSize` bytes, so the text of a big report never exists whole.
    static func write(
        head: String, pieces count: Int, jobs: Int, chunkSize: Int, to sink: ([UInt8]) throws -> Void,
        _ piece: @Sendable (Int) -> String, tail: () -> String
    ) rethrows {
        try write(
            head: head, pieces: count, jobs: jobs, chunkSize: chunkSize, to: sink, piece, parts: { _, _ in },
            tail: tail)
    }

    /// ``write(head:pieces:jobs:chunkSize:to:_:tail:)``, where a piece `piece` gives no text for (one too big to
    /// hold whole: a process of very many items, ``streamedItems``) is written from `parts`, which hands its text a
    /// part at a time to the function it is given, on the writing thread, as it is written.
    static func write(
        head: String, pieces count: Int, jobs: Int, chunkSize: Int, to sink: ([UInt8]) throws -> Void,
        _ piece: @Sendable (Int) -> String?, parts: (Int, (String) throws -> Void) throws -> Void,
        tail: () -> String
    ) rethrows {
        try writeBytes(
            head: Array(head.utf8), pieces: count, jobs: jobs, chunkSize: chunkSize, to: sink,
            { piece($0).map { Array($0.utf8) } },
            parts: { index, emit in
                try withoutActuallyEscaping(emit) { emit in try parts(index) { try emit(Array($0.utf8)) } }
            }, tail: { Array(tail().utf8) })
    }

    /// ``write(head:pieces:jobs:chunkSize:to:_:parts:tail:)`` for pieces made as bytes (``ReportText``).
    static func writeBytes(
        head: [UInt8] = [], pieces count: Int, jobs: Int, chunkSize: Int, to sink: ([UInt8]) throws -> Void,
        _ piece: @Sendable (Int) -> [UInt8]?, parts: (Int, ([UInt8]) throws -> Void) throws -> Void,
        tail: () -> [UInt8]
    ) rethrows {
        var out = head
        try forEach(count: count, jobs: jobs, { (index: $0, bytes: piece($0)) }) { made in
            if let bytes = made.bytes {
                out += bytes
            } else {
                // `parts` calls the closure below only while it runs, on this thread: `sink` does not escape.
                try withoutActuallyEscaping(sink) { sink in
                    try parts(made.index) { bytes in
                        out += bytes
                        if out.count >= chunkSize {
                            try sink(out)
                            out.removeAll(keepingCapacity: true)
                        }
                    }
                }
            }
            if out.count >= chunkSize {
                try sink(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        out += tail()
        try sink(out)
    }

    /// A process with more items (episodes, violations, events) than this is not rendered whole on a thread but
    /// written on the writing thread, handed on as it goes.
    static let streamedItems = 4_096

    /// What a report writer that streams (``write(head:pieces:jobs:chunkSize:to:_:tail:)``) writes, as one string:
    /// each such reporter's `render`, for tests and callers that want the text whole.
    static func whole(_ write: (_ sink: ([UInt8]) -> Void) -> Void) -> String {
        var out: [UInt8] = []
        write { out += $0 }
        return String(decoding: out, as: UTF8.self)
    }

    /// The next index to take, shared by the threads of a window.
    private final class Counter: @unchecked Sendable {
        private let lock = Lock()
        private var value = 0

        func next(below limit: Int) -> Int? {
            lock.withLock {
                guard value < limit else { return nil }
                defer { value += 1 }
                return value
            }
        }
    }

    /// One result per index, each written by exactly one worker before any is read (raw storage: the workers
    /// write distinct slots through the pointer, never the property).
    private final class Slots<Element>: @unchecked Sendable {
        private let items: UnsafeMutableBufferPointer<Element?>

        init(count: Int) {
            items = .allocate(capacity: count)
            items.initialize(repeating: nil)
        }

        deinit {
            _ = items.deinitialize()
            items.deallocate()
        }

        func store(_ item: Element, at index: Int) { items[index] = item }

        func take(_ index: Int) -> Element {
            guard let item = items[index] else { preconditionFailure("result \(index) was never stored") }
            items[index] = nil
            return item
        }
    }
}
