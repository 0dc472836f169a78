// generate-capture: a deterministic, realistic NSLog capture for benchmarks (Scripts/benchmark.sh).
//
//   generate-capture --size 200MB [--seed N] [--style STYLE] [--output PATH]
//
// The same arguments always give byte-identical output: everything comes from SplitMix64 streams of the seed,
// the clock is simulated (no wall time), and nothing depends on the platform.
//
// What a capture holds: 5 processes (classic `2013-10-13 12:24:09.948 App[12199:60b]` and modern
// `2019-05-04 10:46:18.564743-0500 App[11053:1702596]` prefixes, one style per process, some names with
// spaces), one monotonic clock, ~90% app noise (networking, JSON, CoreData, CoreLocation, UIKit
// warnings, …), ~1.3% lifecycle lines in legal UIKit sequences (launch, home, return, interruption,
// memory warning, willTerminate or a silent kill, relaunch with a new pid) in many spellings,
// multi-line NSDictionary / NSArray dumps, a few blank lines and a few garbage lines (random bytes,
// sometimes invalid UTF-8, prefixes cut off mid-line).
//
// `--style` writes the same records as the `log` tool prints them instead (`log-compact`, `log-default`,
// `log-syslog`: a level, a subsystem and category on some lines, the dumps' lines raw), or as `idevicesyslog` prints
// a device's log (`device-syslog`: no year, a device name, a level, the framework on some lines), as `log show --style
// ndjson` prints it (`log-ndjson`: one JSON object a record, a dump's lines joined into its `eventMessage`), or as
// macOS wrote `/var/log/system.log` (`syslog`: no year, whole seconds, a host name), so that the other formats can be
// measured on the same content; `nslog` (the default) is unchanged by the option. `xcode` is the NSLog capture as
// Xcode's console shows an app that also logs with `print`: about half of the noise records without their prefix,
// lines of no format. `ci` is the `xcode` capture as a CI job that prints the app's console shows it in its raw log:
// every line behind the runner's timestamp (`2024-05-01T10:00:00.1234567Z `, GitHub Actions'), whose clock is the
// capture's.

import TraceAnalysis

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - Command line

let usageText = """
    usage: generate-capture --size SIZE [--seed N] [--style STYLE] [--output PATH]

      --size SIZE    how much to write: bytes, or a number with a unit: K/KB, M/MB, G/GB (powers
                     of 1000) or KiB/MiB/GiB (powers of 1024), e.g. 1MB, 500MB, 2GB. Generation stops
                     at the end of the first record that reaches SIZE (a few hundred bytes over at most).
      --seed N       PRNG seed, an unsigned 64-bit integer (default 1). Same arguments, same bytes.
      --style STYLE  the records' prefix: nslog (the default), log-compact, log-default,
                     log-syslog or log-ndjson (as `log show` prints them, with --style compact,
                     none, syslog or ndjson), device-syslog (as idevicesyslog prints a device's
                     log), syslog (as macOS wrote /var/log/system.log), xcode (NSLog as
                     Xcode's console shows it, with about half of the app's noise printed
                     by `print`, without the NSLog prefix) or ci (the xcode capture in a CI
                     runner's raw job log, each line behind the runner's timestamp).
      --output PATH  write to PATH instead of standard output.
      -h, --help     show this help.

    """

func printError(_ message: String) {
    var text = "generate-capture: " + message + "\n"
    _ = text.withUTF8 { Output.writeAll(UnsafeRawBufferPointer($0), to: 2) }
}

func errorText() -> String { String(cString: strerror(errno)) }

func fail(_ message: String) -> Never {
    printError(message + "\n\n" + usageText)
    exit(64)  // EX_USAGE
}

func parseSize(_ text: String) -> UInt64? {
    let lower = text.lowercased()
    let digits = lower.prefix { $0.isNumber || $0 == "." }
    let unit = lower.dropFirst(digits.count).trimmingPrefix(" ")
    guard !digits.isEmpty, let value = Double(digits), value > 0 else { return nil }
    let multipliers: [String: Double] = [
        "": 1, "b": 1,
        "k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9,
        "kib": 1024, "mib": 1_048_576, "gib": 1_073_741_824,
    ]
    guard let multiplier = multipliers[String(unit)] else { return nil }
    let bytes = (value * multiplier).rounded()
    guard bytes >= 1, bytes < 1e15 else { return nil }
    return UInt64(bytes)
}

/// How a record's prefix is written: NSLog's, one of the `log` tool's styles, or a device's syslog.
enum Style: String, CaseIterable {
    case nslog
    case logCompact = "log-compact"
    case logDefault = "log-default"
    case logSyslog = "log-syslog"
    case deviceSyslog = "device-syslog"
    case logNDJSON = "log-ndjson"
    case syslog
    case xcode
    case ci
}

struct Options {
    var size: UInt64 = 0
    var seed: UInt64 = 1
    var style = Style.nslog
    var output: String? = nil
}

func parseArguments(_ arguments: [String]) -> Options {
    var options = Options()
    var sawSize = false
    var index = 0
    while index < arguments.count {
        var argument = arguments[index]
        var inlineValue: String? = nil
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            inlineValue = String(argument[argument.index(after: equals)...])
            argument = String(argument[..<equals])
        }
        func value() -> String {
            if let inlineValue { return inlineValue }
            index += 1
            guard index < arguments.count else { fail("\(argument) needs a value") }
            return arguments[index]
        }
        switch argument {
        case "-h", "--help":
            print(usageText, terminator: "")
            exit(0)
        case "--size":
            let text = value()
            guard let size = parseSize(text) else { fail("bad size '\(text)' (try 1MB, 500MB, 2GB)") }
            options.size = size
            sawSize = true
        case "--seed":
            let text = value()
            guard let seed = UInt64(text) else { fail("bad seed '\(text)' (an unsigned 64-bit integer)") }
            options.seed = seed
        case "--style":
            let text = value()
            guard let style = Style(rawValue: text) else {
                fail("bad style '\(text)' (\(Style.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            options.style = style
        case "--output", "-o":
            let path = value()
            guard !path.isEmpty else { fail("empty --output path") }
            options.output = path
        default:
            fail("unknown argument '\(arguments[index])'")
        }
        index += 1
    }
    guard sawSize else { fail("--size is required") }
    return options
}

// MARK: - PRNG

/// Draws on the library's SplitMix64 (one fully specified stream: same arguments, same bytes).
extension SplitMix64 {
    /// Uniform in 0..<n (n > 0); the modulo bias is irrelevant here.
    @inline(__always)
    mutating func below(_ n: Int) -> Int { Int((next() >> 1) % UInt64(n)) }

    /// Uniform in lo...hi.
    @inline(__always)
    mutating func range(_ lo: Int, _ hi: Int) -> Int { lo + below(hi - lo + 1) }

    @inline(__always)
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    @inline(__always)
    mutating func chance(_ p: Double) -> Bool { unit() < p }

    @inline(__always)
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

// MARK: - Vocabulary of the capture

typealias Bytes = [UInt8]

@inline(__always) func b(_ s: String) -> Bytes { Array(s.utf8) }

enum Event: Int, CaseIterable {
    case didFinishLaunching, viewDidLoad, viewWillAppear, didBecomeActive, viewDidAppear
    case willResignActive, didEnterBackground, willEnterForeground, memoryWarning, willTerminate
}

/// How one app spells its lifecycle callbacks, indexed by `Event.rawValue`.
let spellingStyles: [[String]] = [
    // Bare selectors (`NSLog(@"%@", NSStringFromSelector(_cmd))`).
    [
        "application:didFinishLaunchingWithOptions:", "-[RootViewController viewDidLoad]",
        "-[RootViewController viewWillAppear:]", "applicationDidBecomeActive:",
        "-[RootViewController viewDidAppear:]", "applicationWillResignActive:", "applicationDidEnterBackground:",
        "applicationWillEnterForeground:", "Received memory warning.", "applicationWillTerminate:",
    ],
    // Hand-written text.
    [
        "App Delegate: didFinishLaunchingWithOptions", "Root View Controller: View Did Load",
        "Root View Controller: View Will Appear", "App Delegate: applicationDidBecomeActive",
        "Root View Controller: View Did Appear", "App Delegate: applicationWillResignActive",
        "App Delegate: applicationDidEnterBackground", "App Delegate: applicationWillEnterForeground",
        "Received memory warning.", "App Delegate: applicationWillTerminate",
    ],
    // __PRETTY_FUNCTION__.
    [
        "-[AppDelegate application:didFinishLaunchingWithOptions:]", "-[ZHFirstSubViewController viewDidLoad]",
        "-[ZHFirstSubViewController viewWillAppear:]", "-[AppDelegate applicationDidBecomeActive:]",
        "-[ZHFirstSubViewController viewDidAppear:]", "-[AppDelegate applicationWillResignActive:]",
        "-[AppDelegate applicationDidEnterBackground:]", "-[AppDelegate applicationWillEnterForeground:]",
        "-[ZHFirstSubViewController didReceiveMemoryWarning]", "-[AppDelegate applicationWillTerminate:]",
    ],
    // Swift #function.
    [
        "application(_:didFinishLaunchingWithOptions:)", "viewDidLoad()", "viewWillAppear(_:)",
        "applicationDidBecomeActive(_:)", "viewDidAppear(_:)", "applicationWillResignActive(_:)",
        "applicationDidEnterBackground(_:)", "applicationWillEnterForeground(_:)", "Received memory warning",
        "applicationWillTerminate(_:)",
    ],
    // Notification observers and bare names.
    [
        "UIApplicationDidFinishLaunchingNotification", "Root View Controller: View Did Load",
        "-[RootViewController viewWillAppear:]", "UIApplicationDidBecomeActiveNotification",
        "-[RootViewController viewDidAppear:]", "UIApplicationWillResignActiveNotification",
        "applicationDidEnterBackground", "UIApplicationWillEnterForegroundNotification",
        "UIApplication.didReceiveMemoryWarningNotification", "UIApplication.willTerminateNotification",
    ],
]

/// The raw material of the noise lines.
enum Text {
    static let hosts: [String] = [
        "api.example.com", "cdn.example.net", "auth.example.com", "graph.example.org", "telemetry.example.io",
        "static.example.com",
    ]
    static let apiPaths: [String] = [
        "items", "users", "feed", "messages", "settings", "search", "profile/avatar", "orders", "sync/delta",
        "notifications", "regions", "tiles",
    ]
    static let httpMethods: [String] = ["GET", "GET", "GET", "POST", "PUT", "DELETE"]
    static let httpStatuses: [Int] = [200, 200, 200, 200, 200, 201, 204, 304, 400, 401, 404, 500, 503]
    static let words: [String] = [
        "cache", "sync", "request", "payload", "session", "token", "item", "record", "queue", "batch", "upload",
        "download", "image", "thumbnail", "profile", "settings", "feed", "message", "user", "account", "device",
        "config", "store", "entity", "fetch", "merge", "context", "observer", "timer", "retry", "backoff",
        "response", "header", "cookie", "locale", "region", "beacon", "map", "tile", "render", "layout", "font",
        "theme", "animation", "scroll", "offset", "index", "page", "cursor", "delta", "snapshot", "diff", "commit",
        "flush", "write", "read", "pending", "completed", "skipped", "stale", "fresh", "remote", "local", "ok",
    ]
    static let screens: [String] = [
        "Home", "Settings", "Profile", "Map", "Search", "Detail", "Checkout", "Onboarding", "Inbox",
    ]
    static let analyticsEvents: [String] = [
        "screen_view", "button_tap", "scroll_depth", "search_submit", "purchase", "share", "login",
    ]
    static let entities: [String] = ["ZITEM", "ZUSER", "ZMESSAGE", "ZREGION", "ZPHOTO", "ZTAG"]
    static let classNames: [String] = [
        "DetailViewController", "MainViewController", "SettingsTableViewController", "MapViewController",
        "UINavigationController", "UIAlertController", "PhotoCollectionViewCell",
    ]
    static let startupLines: [String] = [
        "Crashlytics: initializing SDK 3.13.0", "Starting app version 2.4.1 (build 318)",
        "Firebase/Core: configured default app", "Loading persistent store from Model.sqlite",
        "Feature flags loaded: 14 enabled, 3 disabled",
    ]
    static let headerKeys: [String] = [
        "\"Content-Type\" = \"application/json; charset=utf-8\";", "\"Content-Length\" = 5321;",
        "Date = \"Sat, 04 May 2019 15:46:18 GMT\";", "Server = nginx;", "\"Cache-Control\" = \"max-age=300\";",
        "Etag = \"W/\\\"5e1-17a\\\"\";", "Connection = \"keep-alive\";", "Vary = \"Accept-Encoding\";",
        "\"x-request-id\" = \"4bf92f3577b34da6a3ce929d0e0e4736\";",
    ]
}

// MARK: - Processes

enum AppState {
    case notRunning, launching, active, inactive, background
    /// How chatty the app is in this state (relative chance to log the next noise line).
    var chattiness: Double {
        switch self {
        case .notRunning: 0
        case .launching: 1.2
        case .active: 1
        case .inactive: 0.5
        case .background: 0.06
        }
    }
}

enum PendingKind {
    case event(Event)
    case startup  // the first line of a new incarnation, before didFinishLaunching
    case kill  // the process dies without a word (jetsam, crash): no line
}

struct Pending {
    var due: UInt64
    var kind: PendingKind
    var newPid: Bool
}

struct Process {
    let name: Bytes
    let modern: Bool
    let style: Int
    let threads: [Bytes]  // threads[0] is the main thread
    let busyness: Double
    var pid: Int
    var state: AppState
    var pending: [Pending] = []
    var pendingHead = 0

    var hasPending: Bool { pendingHead < pending.count }
}

// MARK: - Generator

struct Generator {
    var rng: SplitMix64
    /// Draws for what only the other styles write (a level, a subsystem, a framework), apart from ``rng``: every
    /// style writes the same records, line for line.
    var decoration: SplitMix64
    let limit: UInt64
    let style: Style
    let sink: Int32
    var out: Bytes = []
    var flushed: UInt64 = 0
    let flushThreshold = 1 << 20

    /// Simulated clock: µs since `baseSecond` (a naive local time).
    var now: UInt64
    let baseSecond: Int64
    var cachedSecond: UInt64 = .max
    var secondText: Bytes = []
    /// The same second as a device's syslog writes it: `Mmm dd HH:MM:SS`, the day padded with a space.
    var syslogSecondText: Bytes = []

    var processes: [Process]
    var current = 0
    /// `log-ndjson`: where the open record's message starts in ``out``, and its process's pid (written after it).
    var messageStart: Int? = nil
    var messagePid = 0
    var machTimestamp: UInt64 = 20_147_685_217_463

    let spellings: [[Bytes]]
    let tables: Tables

    struct Tables {
        let hosts = Text.hosts.map(b)
        let apiPaths = Text.apiPaths.map(b)
        let methods = Text.httpMethods.map(b)
        let words = Text.words.map(b)
        let screens = Text.screens.map(b)
        let analytics = Text.analyticsEvents.map(b)
        let entities = Text.entities.map(b)
        let classes = Text.classNames.map(b)
        let startup = Text.startupLines.map(b)
        let headerKeys = Text.headerKeys.map(b)
        let statuses = Text.httpStatuses
    }

    init(seed: UInt64, limit: UInt64, style: Style, sink: Int32) {
        rng = SplitMix64(seed: seed ^ 0x7261_6365_2D61_6E61)  // "race-ana"
        decoration = SplitMix64(seed: seed ^ 0x6C6F_6773_7479_6C65)  // "logstyle"
        self.limit = limit
        self.style = style
        self.sink = sink
        out.reserveCapacity(flushThreshold + 64 * 1024)
        baseSecond = Generator.epochSeconds(year: 2019, month: 5, day: 4) + 10 * 3600 + 46 * 60 + 18
        now = 564_743
        spellings = spellingStyles.map { $0.map(b) }
        tables = Tables()

        func hexThread(_ v: Int) -> Bytes { b(String(v, radix: 16)) }
        var r = rng
        processes = [
            Process(
                name: b("State Lab"), modern: false, style: 0,
                threads: [b("70b"), hexThread(r.range(0x1000, 0x3fff)), hexThread(r.range(0x1000, 0x3fff))],
                busyness: 1.0, pid: r.range(300, 20000), state: .notRunning),
            Process(
                name: b("CreatingStateLab"), modern: true, style: 3,
                threads: [b("1702596"), b("1702641"), b("1702733"), b("1702790")],
                busyness: 1.4, pid: r.range(300, 20000), state: .notRunning),
            Process(
                name: b("BackgroundDemo"), modern: false, style: 1,
                threads: [b("60b"), hexThread(r.range(0x1000, 0x3fff))],
                busyness: 0.6, pid: r.range(300, 20000), state: .active),
            Process(
                name: b("My Great App"), modern: true, style: 4,
                threads: [b("259"), b("7171"), b("7302")],
                busyness: 1.0, pid: r.range(300, 20000), state: .notRunning),
            Process(
                name: b("7_1UIViewController"), modern: false, style: 2,
                threads: [b("907"), hexThread(r.range(0x1000, 0x3fff)), hexThread(r.range(0x1000, 0x3fff))],
                busyness: 0.5, pid: r.range(300, 20000), state: .active),
        ]
        rng = r
        // Three apps launch in the first seconds; two were already running when the capture started.
        scheduleLaunch(0, at: now + 120_000)
        scheduleLaunch(1, at: now + 1_400_000)
        scheduleLaunch(3, at: now + 4_200_000)
    }

    static func epochSeconds(year: Int, month: Int, day: Int) -> Int64 {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return Int64(era * 146097 + doe - 719468) * 86400
    }

    // MARK: Output

    mutating func flush() {
        guard !out.isEmpty else { return }
        let count = out.count
        guard out.withUnsafeBytes({ Output.writeAll($0, to: sink) }) else {
            printError("write failed: \(errorText())")
            exit(74)  // EX_IOERR
        }
        flushed += UInt64(count)
        out.removeAll(keepingCapacity: true)
    }

    mutating func run() {
        while flushed + UInt64(out.count) < limit {
            let start = out.count
            step()
            if style == .ci { putRunnerTimestamps(from: start) }
            if out.count >= flushThreshold { flush() }
        }
        flush()
    }

    /// `ci`: the runner's timestamp before each line written from `start` (`2024-05-01T10:00:00.1234567Z `, as
    /// GitHub Actions writes it in a raw job log): the capture's clock from 10:00 UTC on 2024-05-01, its seventh
    /// fraction digit drawn from the clock.
    mutating func putRunnerTimestamps(from start: Int) {
        guard start < out.count else { return }
        let seconds = 1_714_557_600 + Int(now / 1_000_000)
        let (year, month, day) = Self.civil(days: seconds / 86_400)
        let second = seconds % 86_400
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let stamp =
            "\(year)-\(two(month))-\(two(day))T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))."
        let fraction = String(now % 1_000_000 + 1_000_000).dropFirst() + String((now / 7) % 10)
        let prefix = Array((stamp + fraction + "Z ").utf8)
        var lines = Bytes()
        lines.reserveCapacity((out.count - start) + prefix.count * 4)
        var lineStart = true
        for byte in out[start...] {
            if lineStart { lines += prefix }
            lines.append(byte)
            lineStart = byte == UInt8(ascii: "\n")
        }
        out.replaceSubrange(start..., with: lines)
    }

    /// The date of a day counted from 1970-01-01 (Howard Hinnant's civil_from_days; the days of the capture's
    /// clocks are after 1970).
    static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = z / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    @inline(__always) mutating func put(_ bytes: Bytes) { out.append(contentsOf: bytes) }
    @inline(__always) mutating func put(_ byte: UInt8) { out.append(byte) }
    @inline(__always) mutating func put(_ s: StaticString) {
        s.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// `value` in decimal, zero-padded to `width` digits.
    mutating func putPadded(_ value: UInt64, width: Int) {
        let start = out.count
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width))
        var v = value
        var i = start + width
        while i > start {
            i -= 1
            out[i] = UInt8(truncatingIfNeeded: 48 &+ v % 10)
            v /= 10
        }
    }

    mutating func putInt(_ value: Int) {
        if value < 0 { put(UInt8(ascii: "-")) }
        let v = value.magnitude
        var width = 1
        var t = v
        while t >= 10 {
            t /= 10
            width += 1
        }
        putPadded(UInt64(v), width: width)
    }

    mutating func putHex(_ value: UInt64, width: Int, upper: Bool = false) {
        let digits: StaticString = upper ? "0123456789ABCDEF" : "0123456789abcdef"
        let start = out.count
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width))
        var v = value
        var i = start + width
        digits.withUTF8Buffer { table in
            while i > start {
                i -= 1
                out[i] = table[Int(v & 15)]
                v >>= 4
            }
        }
    }

    /// `1.234`-style fixed-point number.
    mutating func putFixed(_ thousandths: Int, decimals: Int = 3) {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        putInt(thousandths / scale)
        put(UInt8(ascii: "."))
        putPadded(UInt64(thousandths % scale), width: decimals)
    }

    mutating func putUUID() {
        let a = rng.next()
        let c = rng.next()
        putHex(a >> 32, width: 8, upper: true)
        put(UInt8(ascii: "-"))
        putHex((a >> 16) & 0xffff, width: 4, upper: true)
        put(UInt8(ascii: "-"))
        putHex(a & 0xffff, width: 4, upper: true)
        put(UInt8(ascii: "-"))
        putHex(c >> 48, width: 4, upper: true)
        put(UInt8(ascii: "-"))
        putHex(c & 0xffff_ffff_ffff, width: 12, upper: true)
    }

    mutating func putPointer() {
        put("0x")
        putHex(0x7f00_0000_0000 | (rng.next() & 0xff_ffff_fff0), width: 12)
    }

    /// `Mmm dd HH:MM:SS.ffffff`: the clock as a device's syslog writes it (no year, microseconds).
    mutating func putSyslogTimestamp() {
        cacheSecondTexts()
        put(syslogSecondText)
        put(UInt8(ascii: "."))
        putPadded(now % 1_000_000, width: 6)
    }

    mutating func putTimestamp(modern: Bool) {
        cacheSecondTexts()
        put(secondText)
        put(UInt8(ascii: "."))
        let micros = now % 1_000_000
        if modern {
            putPadded(micros, width: 6)
            put("-0500")
        } else {
            putPadded(micros / 1000, width: 3)
        }
    }

    /// ``secondText`` and ``syslogSecondText`` for the clock's second, made when it moves to another.
    mutating func cacheSecondTexts() {
        let second = now / 1_000_000
        if second != cachedSecond {
            cachedSecond = second
            let total = baseSecond + Int64(second)
            let (year, month, day) = Self.civil(days: Int(total / 86400))
            let rem = Int(total % 86400)
            let saved = out
            out.removeAll(keepingCapacity: true)
            putPadded(UInt64(year), width: 4)
            put(UInt8(ascii: "-"))
            putPadded(UInt64(month), width: 2)
            put(UInt8(ascii: "-"))
            putPadded(UInt64(day), width: 2)
            put(UInt8(ascii: " "))
            putPadded(UInt64(rem / 3600), width: 2)
            put(UInt8(ascii: ":"))
            putPadded(UInt64(rem / 60 % 60), width: 2)
            put(UInt8(ascii: ":"))
            putPadded(UInt64(rem % 60), width: 2)
            secondText = out
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            syslogSecondText = Array(months[month - 1].utf8) + [UInt8(ascii: " ")]
            syslogSecondText += day < 10 ? [UInt8(ascii: " "), UInt8(ascii: "0") + UInt8(day)] : out[8..<10]
            syslogSecondText += out[10..<19]
            out = saved
        }
    }

    /// `timestamp Name[pid:thread] ` for process `p` (NSLog), or the prefix of ``style``.
    mutating func putPrefix(_ p: Int, mainThread: Bool) {
        let process = processes[p]
        let thread =
            mainThread || process.threads.count == 1 || rng.chance(0.7)
            ? process.threads[0] : process.threads[1 + rng.below(process.threads.count - 1)]
        switch style {
        case .nslog, .xcode, .ci:
            // Xcode's console: what the app prints with `print` has no prefix. About half of its noise (not its
            // lifecycle lines, which the delegates log with NSLog) is printed.
            if style != .nslog, !mainThread, decoration.chance(0.5) { return }
            putTimestamp(modern: process.modern)
            put(UInt8(ascii: " "))
            putProcess(process, thread: thread)
        case .logCompact:
            // `2019-05-04 10:46:18.565 Df State Lab[12751:70b] [com.example.app:network] …`
            putTimestamp(modern: false)
            put(decoration.pick([" Df ", " Df ", " Df ", " Df ", " I  ", " E  ", " Db "] as [StaticString]))
            putProcess(process, thread: thread)
            putSubsystem()
        case .logDefault:
            // `2019-05-04 10:46:18.564743-0500 0x70b      Default     0x0                  12751  0    State Lab: …`
            putTimestamp(modern: true)
            put(" 0x")
            put(thread)
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: max(1, 9 - thread.count)))
            put(
                decoration.pick(
                    ["Default     ", "Default     ", "Default     ", "Info        ", "Error       "] as [StaticString]))
            put("0x0                  ")
            let start = out.count
            putInt(process.pid)
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: max(1, 7 - (out.count - start))))
            put("0    ")
            put(process.name)
            put(UInt8(ascii: ":"))
            putSubsystem()
        case .logSyslog:
            // `2019-05-04 10:46:18.564743-0500  localhost State Lab[12751]: …`
            putTimestamp(modern: true)
            put("  localhost ")
            put(process.name)
            put(UInt8(ascii: "["))
            putInt(process.pid)
            put("]:")
            putSubsystem()
        case .deviceSyslog:
            // `May  4 10:46:18.564743 iPhone State Lab(UIKitCore)[12751] <Notice>: …`
            putSyslogTimestamp()
            put(" iPhone ")
            put(process.name)
            if decoration.chance(0.33) {
                put(decoration.pick(["(UIKitCore)", "(CFNetwork)", "(Foundation)"] as [StaticString]))
            }
            put(UInt8(ascii: "["))
            putInt(process.pid)
            put("] ")
            put(decoration.pick(["<Notice>:", "<Notice>:", "<Notice>:", "<Error>:", "<Warning>:"] as [StaticString]))
        case .syslog:
            // `May  4 10:46:18 MacBook-Pro State Lab[12751]: …`, now and then with a sender after the pid.
            cacheSecondTexts()
            put(syslogSecondText)
            put(" MacBook-Pro ")
            put(process.name)
            put(UInt8(ascii: "["))
            putInt(process.pid)
            put(UInt8(ascii: "]"))
            if decoration.chance(0.1) { put(" (com.apple.UIKit)") }
            put(UInt8(ascii: ":"))
        case .logNDJSON:
            putNDJSONHead(process, thread: thread)
            return
        }
        put(UInt8(ascii: " "))
    }

    /// A `log --style ndjson` object up to its `eventMessage`'s opening quote, with the keys `log` writes, in its
    /// order; ``endRecord()`` escapes the message written after it and closes the object.
    mutating func putNDJSONHead(_ process: Process, thread: Bytes) {
        put(#"{"timezoneName":"","messageType":""#)
        put(decoration.pick(["Default", "Default", "Default", "Info", "Error"] as [StaticString]))
        put(#"","eventType":"logEvent","source":null,"formatString":"%{public}@","userID":501,"#)
        put(#""activityIdentifier":0,"subsystem":""#)
        switch decoration.below(6) {
        case 0: put(#"com.example.app","category":"network"#)
        case 1: put(#"com.apple.UIKit","category":"Lifecycle"#)
        default: put(#"","category":""#)
        }
        put(#"","threadID":"#)
        var threadID = 0
        for digit in thread { threadID = threadID * 16 + Int(digit <= 57 ? digit - 48 : digit - 87) }
        putInt(threadID)
        put(#","senderImageUUID":"0F483193-D206-362B-9874-0100BCCB9CBD","backtrace":{"frames":[{"#)
        put(#""imageOffset":103060,"imageUUID":"0F483193-D206-362B-9874-0100BCCB9CBD"}]},"#)
        put(#""bootUUID":"3590A0B1-4C7D-4C4A-9F0B-69FAC3D0BD58","processImagePath":"\/Applications\/"#)
        put(process.name)
        put(#".app\/"#)
        put(process.name)
        put(#"","senderImagePath":"\/System\/Library\/Frameworks\/Foundation.framework\/Versions\/C\/Foundation","#)
        put(#""timestamp":""#)
        putTimestamp(modern: true)
        put(#"","machTimestamp":"#)
        machTimestamp += UInt64(decoration.range(900, 1100))
        putInt(Int(machTimestamp))
        put(#","eventMessage":""#)
        messageStart = out.count
        messagePid = process.pid
    }

    /// Ends the record being written: its line feed, after closing its JSON object in `log-ndjson` (its message
    /// escaped as `log` escapes it, `/` included).
    mutating func endRecord() {
        if let start = messageStart {
            messageStart = nil
            let message = out[start...]
            var escaped = Bytes()
            escaped.reserveCapacity(message.count + 16)
            for byte in message {
                switch byte {
                case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "/"): escaped += [UInt8(ascii: "\\"), byte]
                case UInt8(ascii: "\n"): escaped += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case UInt8(ascii: "\t"): escaped += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case 0..<0x20:
                    let digits = Array("0123456789abcdef".utf8)
                    escaped += Array(#"\u00"#.utf8) + [digits[Int(byte >> 4)], digits[Int(byte & 15)]]
                default: escaped.append(byte)
                }
            }
            out.replaceSubrange(start..., with: escaped)
            put(#"","processImageUUID":"4044151C-2EEE-3A42-9F88-BDEE75975064","traceID":41979461356879876,"#)
            put(#""processID":"#)
            putInt(messagePid)
            put(#","senderProgramCounter":103060,"parentActivityIdentifier":0}"#)
        }
        put(UInt8(ascii: "\n"))
    }

    /// `Name[pid:thread]`.
    mutating func putProcess(_ process: Process, thread: Bytes) {
        put(process.name)
        put(UInt8(ascii: "["))
        putInt(process.pid)
        put(UInt8(ascii: ":"))
        put(thread)
        put(UInt8(ascii: "]"))
    }

    /// ` [com.example.app:category]` on a third of the `log` styles' lines (os_log's subsystem and category).
    mutating func putSubsystem() {
        guard decoration.chance(0.33) else { return }
        put(
            decoration.pick(
                [" [com.example.app:network]", " [com.example.app:ui]", " [com.apple.UIKit:Lifecycle]"]
                    as [StaticString]))
    }

    // MARK: Clock and scheduling

    mutating func clockStep() -> UInt64 {
        let r = rng.unit()
        if r < 0.80 { return UInt64(rng.range(20, 1500)) }
        if r < 0.98 { return UInt64(rng.range(1500, 20_000)) }
        return UInt64(rng.range(50_000, 800_000))
    }

    mutating func schedule(_ p: Int, _ due: UInt64, _ kind: PendingKind, newPid: Bool = false) {
        if processes[p].pendingHead == processes[p].pending.count {
            processes[p].pending.removeAll(keepingCapacity: true)
            processes[p].pendingHead = 0
        }
        processes[p].pending.append(Pending(due: due, kind: kind, newPid: newPid))
    }

    /// A launch: optional startup chatter, didFinishLaunching, the root view controller, didBecomeActive.
    mutating func scheduleLaunch(_ p: Int, at start: UInt64) {
        var t = start
        var newPid = true
        if rng.chance(0.7) {
            schedule(p, t, .startup, newPid: true)
            newPid = false
            t += UInt64(rng.range(3_000, 60_000))
        }
        schedule(p, t, .event(.didFinishLaunching), newPid: newPid)
        t += UInt64(rng.range(20_000, 250_000))
        schedule(p, t, .event(.viewDidLoad))
        var active = t + UInt64(rng.range(30_000, 400_000))
        if rng.chance(0.07) { active += UInt64(rng.range(1_500_000, 5_000_000)) }  // a slow launch
        if rng.chance(0.5) {
            t += UInt64(rng.range(1_000, 15_000))
            schedule(p, t, .event(.viewWillAppear))
        }
        schedule(p, active, .event(.didBecomeActive))
        schedule(p, active + UInt64(rng.range(2_000, 40_000)), .event(.viewDidAppear))
    }

    /// Maybe starts a scenario for idle process `p`; true when one was scheduled.
    mutating func maybeStartScenario(_ p: Int) -> Bool {
        let t = now + UInt64(rng.range(0, 400))
        switch processes[p].state {
        case .active:
            guard rng.chance(0.0085) else { return false }
            let r = rng.unit()
            if r < 0.45 {  // home button
                schedule(p, t, .event(.willResignActive))
                schedule(p, t + UInt64(rng.range(500, 2_000)), .event(.didEnterBackground))
            } else if r < 0.72 {  // interruption: call, alert, control centre
                schedule(p, t, .event(.willResignActive))
                schedule(p, t + UInt64(rng.range(1_500_000, 12_000_000)), .event(.didBecomeActive))
            } else if r < 0.97 {
                schedule(p, t, .event(.memoryWarning))
            } else {  // a crash in the foreground, relaunched by the user
                schedule(p, t, .kill)
                scheduleLaunch(p, at: t + UInt64(rng.range(2_000_000, 20_000_000)))
            }
        case .background:
            guard rng.chance(0.05) else { return false }
            let r = rng.unit()
            if r < 0.6 {  // back to the app
                schedule(p, t, .event(.willEnterForeground))
                schedule(p, t + UInt64(rng.range(2_000, 40_000)), .event(.didBecomeActive))
            } else if r < 0.72 {  // killed from the app switcher (or silently while suspended), relaunched later
                schedule(p, t, rng.chance(0.6) ? .event(.willTerminate) : .kill)
                scheduleLaunch(p, at: t + UInt64(rng.range(3_000_000, 60_000_000)))
            } else {
                schedule(p, t, .event(.memoryWarning))
            }
        default:
            return false
        }
        return true
    }

    mutating func emitPending(_ p: Int) {
        let item = processes[p].pending[processes[p].pendingHead]
        processes[p].pendingHead += 1
        if item.newPid {
            processes[p].pid = (processes[p].pid + rng.range(20, 900)) % 99_000 + 100
            processes[p].state = .launching
        }
        switch item.kind {
        case .kill:
            processes[p].state = .notRunning
            return
        case .startup:
            putPrefix(p, mainThread: true)
            put(rng.pick(tables.startup))
        case .event(let event):
            putPrefix(p, mainThread: true)
            var style = processes[p].style
            if rng.chance(0.12) { style = rng.below(spellings.count) }
            put(spellings[style][event.rawValue])
            switch event {
            case .didBecomeActive: processes[p].state = .active
            case .willResignActive: processes[p].state = .inactive
            case .didEnterBackground: processes[p].state = .background
            case .willEnterForeground: processes[p].state = .inactive
            case .willTerminate: processes[p].state = .notRunning
            default: break
            }
        }
        endRecord()
    }

    mutating func pickProcess() -> Int? {
        let stay = processes[current].state.chattiness * processes[current].busyness
        if stay > 0, rng.chance(min(0.85 * stay, 0.9)) { return current }
        var total = 0.0
        for process in processes { total += process.state.chattiness * process.busyness }
        guard total > 0 else { return nil }
        var r = rng.unit() * total
        for index in processes.indices {
            r -= processes[index].state.chattiness * processes[index].busyness
            if r < 0 {
                current = index
                return index
            }
        }
        return nil
    }

    // MARK: One record

    mutating func step() {
        let candidate = now + clockStep()
        var best = -1
        var bestDue = UInt64.max
        for index in processes.indices where processes[index].hasPending {
            let due = processes[index].pending[processes[index].pendingHead].due
            if due < bestDue {
                bestDue = due
                best = index
            }
        }
        if best >= 0, bestDue <= candidate {
            now = max(now, bestDue)
            emitPending(best)
            return
        }
        now = candidate

        let r = rng.unit()
        if r < 0.0008 {
            put(UInt8(ascii: "\n"))
            return
        }
        if r < 0.0013 {
            garbage()
            return
        }
        guard let p = pickProcess() else { return }
        if !processes[p].hasPending, maybeStartScenario(p) { return }
        putPrefix(p, mainThread: false)
        if rng.chance(0.012) {
            multiline()
        } else {
            noise()
        }
        endRecord()
    }

    // MARK: Noise

    mutating func words(_ minLength: Int) {
        let start = out.count
        put(rng.pick(tables.words))
        while out.count - start < minLength {
            put(UInt8(ascii: " "))
            put(rng.pick(tables.words))
        }
    }

    mutating func targetLength() -> Int {
        let r = rng.unit()
        if r < 0.5 { return rng.range(20, 80) }
        if r < 0.85 { return rng.range(80, 160) }
        return rng.range(160, 300)
    }

    mutating func json(_ length: Int) {
        let start = out.count
        put("{\"id\":")
        putInt(rng.range(1, 99999))
        // Fields in a fixed cycle from a random start, so no key repeats (`"extra1_count"` on the 2nd round).
        var field = rng.below(5)
        var round = 0
        while out.count - start < length - 2 {
            if round > 0 {
                put(",\"extra")
                putInt(round)
                put("_")
            } else {
                put(",\"")
            }
            let kind = field % 5
            field += 1
            if field % 5 == 0 { round += 1 }
            switch kind {
            case 0:
                put("name\":\"")
                put(rng.pick(tables.words))
                put(UInt8(ascii: " "))
                put(rng.pick(tables.words))
                put(UInt8(ascii: "\""))
            case 1:
                put("count\":")
                putInt(rng.range(0, 5000))
            case 2:
                put("enabled\":")
                put(rng.chance(0.5) ? "true" : "false")
            case 3:
                put("tags\":[\"")
                put(rng.pick(tables.words))
                put("\",\"")
                put(rng.pick(tables.words))
                put("\"]")
            default:
                put("updated_at\":\"2019-05-0")
                putInt(rng.range(1, 4))
                put("T1")
                putInt(rng.range(0, 9))
                put(":")
                putPadded(UInt64(rng.range(0, 59)), width: 2)
                put(":00Z\"")
            }
        }
        put(UInt8(ascii: "}"))
    }

    mutating func noise() {
        switch rng.below(16) {
        case 0, 1:
            put("HTTP ")
            put(rng.pick(tables.methods))
            put(" https://")
            put(rng.pick(tables.hosts))
            put("/v")
            putInt(rng.range(1, 3))
            put(UInt8(ascii: "/"))
            put(rng.pick(tables.apiPaths))
            put(UInt8(ascii: "/"))
            putInt(rng.range(1, 999_999))
            if rng.chance(0.4) {
                put("?page=")
                putInt(rng.range(1, 40))
                put("&limit=50")
            }
            put(" -> ")
            putInt(rng.pick(tables.statuses))
            put(" (")
            putInt(rng.range(8, 2400))
            put(" ms, ")
            putInt(rng.range(0, 250_000))
            put(" bytes)")
        case 2:
            put("Task <")
            putUUID()
            put(">.<")
            putInt(rng.range(1, 40))
            put("> finished with error [-1001] Error Domain=NSURLErrorDomain Code=-1001 \"The request timed out.\"")
        case 3, 4:
            put("Response JSON: ")
            json(targetLength() - 15)
        case 5:
            if rng.chance(0.5) {
                put("locationManager didDetermineState ")
                put(rng.chance(0.6) ? "INSIDE" : "OUTSIDE")
                put(" for region")
                putInt(rng.range(1, 6))
            } else {
                put("locationManager didUpdateLocations: <+37.")
                putPadded(UInt64(rng.range(0, 99_999_999)), width: 8)
                put(",-122.")
                putPadded(UInt64(rng.range(0, 99_999_999)), width: 8)
                put("> +/- ")
                putFixed(rng.range(3000, 65000), decimals: 2)
                put("m (speed ")
                putFixed(rng.range(0, 3000), decimals: 2)
                put(" mps / course -1.00)")
            }
        case 6, 7:
            switch rng.below(3) {
            case 0:
                put("CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZUPDATED FROM ")
                put(rng.pick(tables.entities))
                put(" t0 WHERE  t0.ZIDENTIFIER = ? ")
            case 1:
                put("CoreData: annotation: sql connection fetch time: ")
                putFixed(rng.range(1, 90), decimals: 4)
                put("s")
            default:
                put("CoreData: annotation: total fetch execution time: ")
                putFixed(rng.range(1, 300), decimals: 4)
                put("s for ")
                putInt(rng.range(0, 500))
                put(" rows.")
            }
        case 8:
            put("[Analytics] event=")
            put(rng.pick(tables.analytics))
            put(" screen=")
            put(rng.pick(tables.screens))
            put(" session=")
            putUUID()
            put(" duration_ms=")
            putInt(rng.range(1, 90_000))
        case 9:
            put("[SDWebImage] cache ")
            put(rng.chance(0.7) ? "hit" : "miss")
            put(" for https://cdn.example.net/images/")
            putHex(rng.next(), width: 16)
            putHex(rng.next(), width: 16)
            put(".jpg (")
            putInt(rng.range(64, 2048))
            put(UInt8(ascii: "x"))
            putInt(rng.range(64, 2048))
            put(", ")
            putInt(rng.range(4, 900))
            put(" KB)")
        case 10, 11:
            put(rng.pick(["Sync: ", "Cache: ", "Queue: ", "Store: ", "Feed: "] as [StaticString]))
            words(targetLength())
        case 12:
            switch rng.below(3) {
            case 0:
                put("Unbalanced calls to begin/end appearance transitions for <")
                put(rng.pick(tables.classes))
                put(": ")
                putPointer()
                put(">.")
            case 1:
                put("Warning: Attempt to present <UIAlertController: ")
                putPointer()
                put("> on <")
                put(rng.pick(tables.classes))
                put(": ")
                putPointer()
                put("> whose view is not in the window hierarchy!")
            default:
                put("<UIView: ")
                putPointer()
                put("; frame = (0 0; 375 667); autoresize = W+H; layer = <CALayer: ")
                putPointer()
                put(">>")
            }
        case 13:
            put("Auth token refreshed for user ")
            putInt(rng.range(1000, 99999))
            put(", expires in ")
            putInt(rng.range(300, 7200))
            put(" s")
        case 14:
            put("Reachability Flag Status: ")
            put(rng.chance(0.8) ? "-R -----l- networkStatusForFlags" : "WR t------ networkStatusForFlags")
        default:
            put("Saved ")
            putInt(rng.range(1, 400))
            put(" items to /var/mobile/Containers/Data/Application/")
            putUUID()
            put("/Documents/cache.sqlite in ")
            putFixed(rng.range(100, 90_000), decimals: 2)
            put(" ms")
        }
    }

    /// An NSDictionary / NSArray description: header ending in `{` or `(`, indented lines, closing line.
    mutating func multiline() {
        if rng.chance(0.65) {
            let headers: [StaticString] = ["Response headers: {", "userInfo: {", "Push payload: {", "Remote config: {"]
            put(rng.pick(headers))
            let count = rng.range(2, 9)
            for i in 0..<count {
                put("\n    ")
                if i == count / 2, rng.chance(0.3) {
                    put("aps =     {\n        alert = \"")
                    words(rng.range(10, 60))
                    put("\";\n        badge = ")
                    putInt(rng.range(0, 20))
                    put(";\n    };")
                } else {
                    put(rng.pick(tables.headerKeys))
                }
            }
            put("\n}")
        } else {
            put(rng.pick(["Fetched identifiers: (", "Pending uploads: (", "Visible regions: ("] as [StaticString]))
            let count = rng.range(2, 12)
            for i in 0..<count {
                put("\n    \"")
                putUUID()
                put(i + 1 < count ? "\"," : "\"")
            }
            put("\n)")
        }
    }

    /// Random printable bytes, now and then an invalid UTF-8 byte, or a line cut off mid-prefix.
    mutating func garbage() {
        if rng.chance(0.3) {
            let start = out.count
            putPrefix(rng.below(processes.count), mainThread: true)
            out.removeLast(out.count - start - rng.range(3, out.count - start - 1))
            messageStart = nil
        } else {
            let length = rng.range(8, 120)
            for _ in 0..<length { put(UInt8(truncatingIfNeeded: 0x20 + rng.below(95))) }
            if rng.chance(0.35) { out[out.count - 1 - rng.below(length)] = 0xFF }
        }
        put(UInt8(ascii: "\n"))
    }
}

// MARK: - Main

let options = parseArguments(Array(CommandLine.arguments.dropFirst()))
var sink: Int32 = 1
if let path = options.output {
    sink = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard sink >= 0 else {
        printError("cannot open \(path): \(errorText())")
        exit(73)  // EX_CANTCREAT
    }
}
var generator = Generator(seed: options.seed, limit: options.size, style: options.style, sink: sink)
generator.run()
if let path = options.output, close(sink) != 0 {
    printError("closing \(path) failed: \(errorText())")
    exit(74)
}
