import CYAML

/// YAML text (1.1, of which JSON is a subset) read with libyaml into the node tree of its one document: what
/// configuration files and baselines are written in. Scalars keep their text, whether they were written plain
/// (unquoted) and their explicit tag, so that a reader can tell `yes` from `"yes"` as YAML 1.1 does; aliases are
/// replaced by the node their anchor names.
public enum YAML {
    /// A node of the document and the 1-based line it starts on.
    public struct Node: Sendable {
        public enum Content: Sendable {
            /// The scalar's text; `plain` when written without quotes or block indicator; `tag` when written
            /// with one (`!!str 12`).
            case scalar(String, plain: Bool, tag: String?)
            case sequence([Node])
            /// The pairs in the order written.
            case mapping([(key: Node, value: Node)])
        }

        public let content: Content
        public let line: Int
    }

    /// Why the text is not a YAML document, in libyaml's words.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// Bytes no YAML text holds (NUL, other control characters) at a byte offset; `value` the character
        /// (-1 when none).
        case reader(problem: String, offset: Int, value: Int32)
        /// What the scanner, the parser or the composer found wrong, and the line it found it on.
        case syntax(problem: String, line: Int)
        /// Keys written more than once in one mapping, in sorted order, and the line of the first one's first
        /// writing.
        case duplicateKeys([String], line: Int)

        public var description: String {
            switch self {
            case .reader(let problem, let offset, let value): "\(problem) at byte \(offset) (value \(value))"
            case .syntax(let problem, let line): "line \(line): \(problem)"
            case .duplicateKeys(let keys, let line): "line \(line): duplicated keys \(keys.joined(separator: ", "))"
            }
        }
    }

    /// How deep collections may nest (libyaml's own limit, where it has one).
    public static let maximumDepth = 1000

    /// The node tree of the text's document; nil when it holds none (empty, or only comments).
    public static func compose(_ text: String) throws(Failure) -> Node? {
        var bytes = Array(text.utf8)
        if bytes.isEmpty { bytes.append(0) }  // libyaml wants an address; the count below stays 0
        let count = text.utf8.count
        return try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> Node? in
            var composer = Composer()
            yaml_parser_set_input_string(composer.parser, buffer.baseAddress, count)
            return try composer.document()
        }
    }

    /// libyaml's parser and the anchors seen so far; events in, nodes out. The parser stays at one address (it
    /// points to itself once given its input).
    private struct Composer: ~Copyable {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        var anchors: [String: Node] = [:]

        init() {
            parser.initialize(to: yaml_parser_t())
            yaml_parser_initialize(parser)
            yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        }

        deinit {
            yaml_parser_delete(parser)
            parser.deallocate()
        }

        /// The stream's one document; a second is an error, as a configuration file holds one.
        mutating func document() throws(Failure) -> Node? {
            var event = try next()  // the stream's start
            yaml_event_delete(&event)
            event = try next()
            defer { yaml_event_delete(&event) }
            if event.type == YAML_STREAM_END_EVENT { return nil }
            let root = try node(from: try next())
            var end = try next()  // the document's end
            yaml_event_delete(&end)
            var after = try next()
            defer { yaml_event_delete(&after) }
            guard after.type == YAML_STREAM_END_EVENT else {
                throw .syntax(
                    problem: "expected a single document in the stream but found another document",
                    line: Int(after.start_mark.line) + 1)
            }
            return root
        }

        /// The next event; the caller deletes it.
        mutating func next() throws(Failure) -> yaml_event_t {
            var event = yaml_event_t()
            guard yaml_parser_parse(parser, &event) == 1 else { throw failure() }
            return event
        }

        /// A collection being read: its line, anchor and what it holds so far.
        private struct Open {
            let line: Int
            let anchor: String?
            var items: [Node] = []
            var pairs: [(key: Node, value: Node)] = []
            var key: Node?
            let isMapping: Bool
        }

        /// The node the event `first` starts, reading (and deleting) its events and `first`. A loop over a stack of the
        /// collections open, not a recursion: a document nested thousands deep is read in constant stack.
        mutating func node(from first: yaml_event_t) throws(Failure) -> Node {
            var open: [Open] = []
            var pending: yaml_event_t? = first
            while true {
                var event: yaml_event_t
                if let first = pending {
                    event = first
                    pending = nil
                } else {
                    event = try next()
                }
                defer { yaml_event_delete(&event) }
                let line = Int(event.start_mark.line) + 1
                var done: Node
                switch event.type {
                case YAML_ALIAS_EVENT:
                    let name = Self.string(event.data.alias.anchor)
                    guard let target = anchors[name] else {
                        throw .syntax(problem: "found undefined alias", line: line)
                    }
                    done = target
                case YAML_SCALAR_EVENT:
                    let scalar = event.data.scalar
                    let text = scalar.value.map { value in
                        String(decoding: UnsafeBufferPointer(start: value, count: scalar.length), as: UTF8.self)
                    }
                    done = Node(
                        content: .scalar(
                            text ?? "", plain: scalar.style == YAML_PLAIN_SCALAR_STYLE,
                            tag: scalar.tag.map { Self.string($0) }),
                        line: line)
                    if let anchor = scalar.anchor { anchors[Self.string(anchor)] = done }
                case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                    let isMapping = event.type == YAML_MAPPING_START_EVENT
                    let anchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
                    guard open.count < YAML.maximumDepth else {
                        throw .syntax(problem: "collections nested more than \(YAML.maximumDepth) deep", line: line)
                    }
                    open.append(Open(line: line, anchor: anchor.map { Self.string($0) }, isMapping: isMapping))
                    continue
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    let closed = open.removeLast()
                    if closed.isMapping {
                        try Self.checkDuplicates(closed.pairs)
                        done = Node(content: .mapping(closed.pairs), line: closed.line)
                    } else {
                        done = Node(content: .sequence(closed.items), line: closed.line)
                    }
                    if let anchor = closed.anchor { anchors[anchor] = done }
                default:
                    throw .syntax(problem: "did not expect an event of type \(event.type.rawValue)", line: line)
                }
                guard !open.isEmpty else { return done }
                let top = open.count - 1
                if !open[top].isMapping {
                    open[top].items.append(done)
                } else if let key = open[top].key {
                    open[top].pairs.append((key, done))
                    open[top].key = nil
                } else {
                    open[top].key = done
                }
            }
        }

        /// Throws for keys written twice (scalar keys compared by text, as the mapping's readers look them up).
        static func checkDuplicates(_ pairs: [(key: Node, value: Node)]) throws(Failure) {
            guard pairs.count > 1 else { return }
            var firstLine: [String: Int] = [:]
            var repeated: Set<String> = []
            for (key, _) in pairs {
                guard case .scalar(let text, _, _) = key.content else { continue }
                if firstLine[text] == nil { firstLine[text] = key.line } else { repeated.insert(text) }
            }
            guard let first = repeated.min() else { return }
            throw .duplicateKeys(repeated.sorted(), line: firstLine[first] ?? 1)
        }

        static func string(_ bytes: UnsafeMutablePointer<yaml_char_t>) -> String {
            String(cString: UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self))
        }

        /// The parser's error.
        func failure() -> Failure {
            let state = parser.pointee
            let problem = state.problem.map { String(cString: $0) } ?? "unknown problem"
            if state.error == YAML_READER_ERROR {
                return .reader(problem: problem, offset: state.problem_offset, value: state.problem_value)
            }
            return .syntax(problem: problem, line: Int(state.problem_mark.line) + 1)
        }
    }
}
