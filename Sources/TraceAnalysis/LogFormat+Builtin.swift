// The built-in formats and prefixes. Every sample line is real (copied from public captures, the model's
// examples or `../shared/corpus/real`) unless its comment says otherwise; `Documentation/Formats.md` cites them.

extension LogFormat {
    /// The formats trace-analyze knows without configuration, in the order they are tried on a new input.
    public static let builtin: [LogFormat] = [
        .nslogModern, .nslogClassic, .logCompact, .logDefault, .logSyslog, .logNDJSON, .deviceSyslog, .syslog,
        .consoleApp, .nslogUntimed, .bare,
    ]

    /// A timestamp with date, microseconds and a `±HHMM` offset, as `log` writes it.
    private static let logTimestamp = #"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+[+-]\d\d:?\d\d"#
    /// `Mmm dd HH:MM:SS[.f]`, the day padded with a space.
    private static let syslogTimestamp = #"[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?"#
    /// The two-letter type codes of `log --style compact`.
    private static let compactTypes = #"Df|Db|E |I |A |F |Er|Fa|Ft"#

    /// NSLog as Xcode prints it since iOS 10: µs, numeric UTC offset, decimal thread id.
    public static let nslogModern = LogFormat(
        id: "nslog-modern",
        title: "modern NSLog (µs, UTC offset, decimal thread)",
        origin: "NSLog in the Xcode console or a device console since iOS 10",
        pattern:
            #"^(?<timestamp>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{4,9}(?:[+-]\d\d:?\d\d|Z)?) (?!0x[0-9a-f]+ )(?<process>[^\[\]\s][^\[\]]*?)\[(?<pid>\d+):(?<thread>\d+)\] ?(?<message>.*)$"#,
        timestamp: .isoLike,
        samples: [
            Sample(
                line: "2019-05-04 10:46:18.564743-0500 CreatingStateLab[11053:1702596] applicationDidBecomeActive:",
                timestamp: "2019-05-04T10:46:18.564743-05:00", process: "CreatingStateLab", pid: 11053,
                thread: "1702596", message: "applicationDidBecomeActive:"),
            // Written for this project: a process name with spaces, a scene callback.
            Sample(
                line: "2021-03-02 09:15:00.123456+0100 My Great App[501:77] scene(_:willConnectTo:options:)",
                timestamp: "2021-03-02T09:15:00.123456+01:00", process: "My Great App", pid: 501, thread: "77",
                message: "scene(_:willConnectTo:options:)"),
        ])

    /// NSLog as Xcode printed it up to iOS 9: ms, no zone, hexadecimal thread id.
    public static let nslogClassic = LogFormat(
        id: "nslog-classic",
        title: "classic NSLog (ms, no zone, hex thread)",
        origin: "NSLog in the Xcode console up to iOS 9, and in old blog posts and READMEs",
        pattern:
            #"^(?<timestamp>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{1,3}) (?!(?:"# + compactTypes
            + #") \S)(?<process>[^\[\]\s][^\[\]]*?)\[(?<pid>\d+):(?<thread>[0-9A-Fa-fx]+)\] ?(?<message>.*)$"#,
        timestamp: .isoLike,
        samples: [
            Sample(
                line: "2013-10-13 12:24:09.948 AppDelegate[12199:60b] App Delegate: didFinishLaunchingWithOptions",
                timestamp: "2013-10-13T12:24:09.948", process: "AppDelegate", pid: 12199, thread: "60b",
                message: "App Delegate: didFinishLaunchingWithOptions"),
            Sample(
                line: "2013-05-20 21:05:48.119 State Lab[12751:70b] application:didFinishLaunchingWithOptions:",
                timestamp: "2013-05-20T21:05:48.119", process: "State Lab", pid: 12751, thread: "70b",
                message: "application:didFinishLaunchingWithOptions:"),
            Sample(
                line: "2013-07-01 18:06:07.038 7_1UIViewController[6617:907] -[ZHFirstSubViewController loadView]",
                process: "7_1UIViewController", pid: 6617, thread: "907",
                message: "-[ZHFirstSubViewController loadView]"),
        ])

    /// `log show --style compact` / `log stream --style compact` (macOS, or a simulator through simctl).
    public static let logCompact = LogFormat(
        id: "log-compact",
        title: "log show/stream --style compact",
        origin: "`log show --style compact`, `log stream --style compact`, `xcrun simctl spawn booted log stream`",
        pattern:
            #"^(?<timestamp>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) (?<level>"# + compactTypes
            + #") (?<process>[^\[\]]+?)\[(?<pid>\d+):(?<thread>[0-9a-f]+)\] ?(?:\([^()]*\) )?(?:\[(?<subsystem>[^:\]\s]+):(?<category>[^\]]*)\] )?(?<message>.*)$"#,
        timestamp: .isoLike,
        furniture: [
            #"^Timestamp +Ty +Process\[PID:TID\] *$"#, #"^Error from getpwuid_r: .*$"#,
            #"^getpwuid_r did not find a match for uid \d+$"#,
        ],
        rawContinuations: true,
        samples: [
            Sample(
                line:
                    "2026-08-17 19:20:56.402 Df node[19887:b199e5] [com.apple.network:path] nw_path_libinfo_path_check",
                timestamp: "2026-08-17T19:20:56.402", process: "node", pid: 19887, thread: "b199e5",
                subsystem: "com.apple.network", category: "path", level: "Df", message: "nw_path_libinfo_path_check"),
            Sample(
                line:
                    "2026-10-08 17:42:48.134 E  kernel[0:9b86] (Sandbox) Sandbox: mapssyncd(14783) deny(1) file-read-data /Users/x",
                timestamp: "2026-10-08T17:42:48.134", process: "kernel", pid: 0, thread: "9b86", level: "E ",
                message: "Sandbox: mapssyncd(14783) deny(1) file-read-data /Users/x"),
            Sample(
                line: "2022-11-14 13:21:15.341 Df My App[59972:780a15] (libffi.dylib) Hello World!",
                process: "My App", pid: 59972, message: "Hello World!"),
            Sample(line: "Timestamp               Ty Process[PID:TID]", kind: .furniture),
            Sample(line: "Error from getpwuid_r: 0 (Undefined error: 0)", kind: .furniture),
        ])

    /// `log show` / `log stream` in their default style, with the preamble and the statistics trailer.
    public static let logDefault = LogFormat(
        id: "log-default",
        title: "log show/stream (default style)",
        origin: "`log show`, `log stream` on a Mac, or on a simulator through `xcrun simctl spawn booted log …`",
        pattern:
            "^(?<timestamp>" + logTimestamp
            + #") +(?<thread>0x[0-9a-f]+) +(?<level>[A-Z][a-z]+) +0x[0-9a-f]+ +(?<pid>\d+) +(?:\d+ +)?(?<process>[^:]+?): (?:\([^()]*\) )?(?:\[(?<subsystem>[^:\]\s]+):(?<category>[^\]]*)\] )?(?<message>.*)$"#,
        timestamp: .isoLike,
        furniture: [
            #"^Filtering the log data using ".*"\s*$"#,
            #"^Skipping (?:info and )?debug messages, pass --(?:info and/or --)?debug to include\.\s*$"#,
            #"^Timestamp +Thread +Type +Activity +PID(?: +TTL)? *$"#,
            #"^-{20,}\s*$"#,
            #"^Log +- Default: *\d+, Info: *\d+, Debug: *\d+, Error: *\d+, Fault: *\d+\s*$"#,
            #"^Activity - Create: *\d+, Transition: *\d+, Actions: *\d+\s*$"#,
        ],
        rawContinuations: true,
        samples: [
            Sample(
                line:
                    "2023-07-19 08:22:51.916784+0300 0x3058     Info        0x0                  599    0    remotepairingd: (RemotePairing) [com.apple.dt.remotepairing:networktunnelmanager] tunnel-1: Tunnel established for interface: utun3",
                timestamp: "2023-07-19T08:22:51.916784+03:00", process: "remotepairingd", pid: 599, thread: "0x3058",
                subsystem: "com.apple.dt.remotepairing", category: "networktunnelmanager", level: "Info",
                message: "tunnel-1: Tunnel established for interface: utun3"),
            Sample(
                line:
                    "2017-12-07 18:33:57.087589+0800 0x1db404   Default     0x0                  48240  Ur iOS AppName: (CFNetwork) Task <E1909D86-F6C8-4AFF-A567-65B59EFE0F22>.<37> now using Connection 10",
                process: "Ur iOS AppName", pid: 48240, level: "Default",
                message: "Task <E1909D86-F6C8-4AFF-A567-65B59EFE0F22>.<37> now using Connection 10"),
            Sample(
                line:
                    "2026-01-25 23:03:22.939421+0200 0x150d2eb  Default     0x0                  6161   0    logger: vmnet-broker: Install completed",
                process: "logger", pid: 6161, message: "vmnet-broker: Install completed"),
            Sample(
                line: #"Filtering the log data using "sender == "logger" AND composedMessage CONTAINS "vmnet-broker"""#,
                kind: .furniture),
            Sample(line: "Skipping info and debug messages, pass --info and/or --debug to include.", kind: .furniture),
            Sample(
                line: "Timestamp                       Thread     Type        Activity             PID    TTL  ",
                kind: .furniture),
            Sample(line: String(repeating: "-", count: 116), kind: .furniture),
            Sample(
                line:
                    "Log      - Default:          5, Info:                0, Debug:             0, Error:          0, Fault:          0",
                kind: .furniture),
            Sample(
                line: "Activity - Create:           0, Transition:          0, Actions:           0", kind: .furniture),
        ])

    /// `log show --style syslog` / `log stream --style syslog`.
    public static let logSyslog = LogFormat(
        id: "log-syslog",
        title: "log show/stream --style syslog",
        origin: "`log show --style syslog`, `log stream --style syslog`",
        pattern:
            "^(?<timestamp>" + logTimestamp
            + #")  ?\S+ (?<process>[^\[\]]+?)\[(?<pid>\d+)\]: (?:\([^()]*\) )?(?:\[(?<subsystem>[^:\]\s]+):(?<category>[^\]]*)\] )?(?<message>.*)$"#,
        timestamp: .isoLike,
        furniture: [#"^Timestamp +\(process\)\[PID\] *$"#],
        rawContinuations: true,
        samples: [
            Sample(
                line:
                    "2023-09-27 22:55:39.622369+0200  localhost legacyScreenSaver[41737]: (ScreenSaverExample) hello_screensaver void custom(int, const char **)",
                timestamp: "2023-09-27T22:55:39.622369+02:00", process: "legacyScreenSaver", pid: 41737,
                message: "hello_screensaver void custom(int, const char **)"),
            Sample(
                line:
                    "2017-09-13 15:26:57.228948-0700  localhost Runner[37195]: (Flutter) Observatory listening on http://127.0.0.1:57701/",
                process: "Runner", pid: 37195, message: "Observatory listening on http://127.0.0.1:57701/"),
            Sample(line: "Timestamp                       (process)[PID]    ", kind: .furniture),
        ])

    /// `log show --style ndjson` / `log stream --style ndjson`: one JSON object a line, keys in any order.
    public static let logNDJSON = LogFormat(
        id: "log-ndjson",
        title: "log show/stream --style ndjson",
        origin: "`log show --style ndjson`, `log stream --style ndjson`",
        pattern:
            #"^\{(?=.*?"eventMessage":"(?<message>(?:[^"\\]++|\\.)*+)")(?=.*?"timestamp":"(?<timestamp>[^"]+)")"#
            + #"(?=(?:.*?"processID":(?<pid>\d+))?)(?=(?:.*?"threadID":(?<thread>\d+))?)"#
            + #"(?=(?:.*?"processImagePath":"(?:[^"]*/)?(?<process>[^"/\\]+)")?)"#
            + #"(?=(?:.*?"subsystem":"(?<subsystem>[^"\\]*)")?)(?=(?:.*?"category":"(?<category>[^"\\]*)")?)"#
            + #"(?=(?:.*?"messageType":"(?<level>[^"\\]*)")?)(?=(?:.*?"machTimestamp":(?<sequence>\d+))?).*\}\s*$"#,
        timestamp: .isoLike,
        encoding: .json,
        furniture: [#"^\{"count":\d+,"finished":\d+\}\s*$"#],
        samples: [
            Sample(
                line:
                    #"{"timezoneName":"","messageType":"Default","eventType":"logEvent","source":null,"formatString":"%25s:%-5d (%p) Input format: %s","userID":501,"activityIdentifier":0,"subsystem":"com.apple.coreaudio","category":"ac","threadID":11498972,"senderImageUUID":"0F483193-D206-362B-9874-0100BCCB9CBD","backtrace":{"frames":[{"imageOffset":103060,"imageUUID":"0F483193-D206-362B-9874-0100BCCB9CBD"}]},"bootUUID":"3590A0B1-4C7D-4C4A-9F0B-69FAC3D0BD58","processImagePath":"\/System\/Library\/Frameworks\/MediaPlayer.framework\/Versions\/A\/XPCServices\/RemotePlayerService.xpc\/Contents\/MacOS\/RemotePlayerService","senderImagePath":"\/System\/Library\/Components\/AudioCodecs.component\/Contents\/MacOS\/AudioCodecs","timestamp":"2026-07-26 18:11:22.348728+1200","machTimestamp":20147685217463,"eventMessage":"  ACMP4AACBaseDecoder.cpp:310   (0xabc180e00) Input format:  2 ch,  44100 Hz, aac  (0x00000000) 0 bits\/channel, 0 bytes\/packet, 1024 frames\/packet, 0 bytes\/frame","processImageUUID":"4044151C-2EEE-3A42-9F88-BDEE75975064","traceID":41979461356879876,"processID":99240,"senderProgramCounter":103060,"parentActivityIdentifier":0}"#,
                timestamp: "2026-07-26T18:11:22.348728+12:00", process: "RemotePlayerService", pid: 99240,
                thread: "11498972", subsystem: "com.apple.coreaudio", category: "ac", level: "Default",
                message:
                    "  ACMP4AACBaseDecoder.cpp:310   (0xabc180e00) Input format:  2 ch,  44100 Hz, aac  (0x00000000) 0 bits/channel, 0 bytes/packet, 1024 frames/packet, 0 bytes/frame"
            ),
            Sample(line: #"{"count":2,"finished":1}"#, kind: .furniture),
        ])

    /// A device's syslog relayed by Xcode's device console or idevicesyslog: no year, a `<Level>`.
    public static let deviceSyslog = LogFormat(
        id: "device-syslog",
        title: "iOS device syslog (idevicesyslog, Xcode device console)",
        origin: "`idevicesyslog`, Xcode's Devices window console, Appium's syslog capture",
        pattern:
            "^(?<timestamp>" + syslogTimestamp
            + #") (?:\S* )?(?<process>[^\[\]()\s][^\[\]()]*?)(?:\([^()]*\))?\[(?<pid>\d+)\](?: \([^()]*\))? <(?<level>[A-Za-z]+)>: ?(?<message>.*)$"#,
        timestamp: .syslog,
        furniture: [
            #"^\[(?:connected|disconnected)(?::[^\]]*)?\]\s*$"#,
            #"^\*\*\* Device is passcode protected, enter passcode on the device to continue \*\*\*\s*$"#,
        ],
        repeatPattern: #"^(?:"# + syslogTimestamp
            + #":? (?:\S+ )?)?--- last message repeated (?<count>\d+) times? ---\s*$"#,
        samples: [
            Sample(
                line:
                    "Jul  4 13:26:15 iPhone-de-Sergi SpringBoard(IDS)[49] <Notice>: <private> got identifier <private> didSendWithSuccess YES  error (null) num delegates: 1",
                timestamp: "2024-07-04T13:26:15", process: "SpringBoard", pid: 49, level: "Notice",
                message: "<private> got identifier <private> didSendWithSuccess YES  error (null) num delegates: 1"),
            Sample(
                line: "Dec  9 09:14:50 Piotrs-iPhone EddyBckgrnd[32072] <Warning>: Received memory warning.",
                timestamp: "2024-12-09T09:14:50", process: "EddyBckgrnd", pid: 32072, level: "Warning",
                message: "Received memory warning."),
            Sample(
                line:
                    "Dec 15 11:48:28.972604 SampleApp(UIKitCore)[11710] <Notice>: Sending UIEvent type: 0; subtype: 0; to windows: 1",
                timestamp: "2024-12-15T11:48:28.972604", process: "SampleApp", pid: 11710,
                message: "Sending UIEvent type: 0; subtype: 0; to windows: 1"),
            Sample(line: "Jun 17 10:49:12 --- last message repeated 2 times ---", kind: .repeat, count: 2),
            Sample(line: "Oct  2 00:32:52: --- last message repeated 1 time ---", kind: .repeat, count: 1),
            Sample(line: "[connected]", kind: .furniture),
        ])

    /// BSD syslog: macOS `/var/log/system.log`, old device syslogs without a level.
    public static let syslog = LogFormat(
        id: "syslog",
        title: "BSD syslog (macOS system.log)",
        origin: "macOS `/var/log/system.log` (up to 10.12), `syslog`, ASL-era device logs",
        pattern:
            "^(?<timestamp>" + syslogTimestamp
            + #") \S+ (?<process>[^\[\]\s<][^\[\]]*?)(?:\[(?<pid>\d+)\])?(?: \([^()]*\))?: (?<message>.*)$"#,
        timestamp: .syslog,
        samples: [
            Sample(
                line:
                    "Jul  1 09:01:05 calvisitor-10-105-160-95 com.apple.CDScheduler[43]: Thermal pressure state: 1 Memory pressure state: 0",
                timestamp: "2024-07-01T09:01:05", process: "com.apple.CDScheduler", pid: 43,
                message: "Thermal pressure state: 1 Memory pressure state: 0"),
            Sample(
                line:
                    "Mar 31 19:11:57 Mikes-iPhone SpringBoard[4027]: MS:Notice: Injecting: com.apple.springboard [SpringBoard](847.21)",
                process: "SpringBoard", pid: 4027,
                message: "MS:Notice: Injecting: com.apple.springboard [SpringBoard](847.21)"),
        ])

    /// Rows copied from Console.app: tab-separated type, time, process, [subsystem, category,] message.
    public static let consoleApp = LogFormat(
        id: "console-app",
        title: "Console.app copy (tab-separated columns)",
        origin: "rows selected in macOS Console.app and copied (⌘C)",
        pattern:
            #"^(?:(?<level>[^\t\d][^\t]*)\t)?(?<timestamp>(?:\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d\.\d+ ?[+-]\d\d:?\d\d)\t(?<process>[^\t]+)\t(?:(?<subsystem>[^\t]*)\t(?<category>[^\t ]*)\t)?(?<message>.*)$"#,
        timestamp: .timeOfDay,
        rawContinuations: true,
        samples: [
            Sample(
                line:
                    "error\t10:37:14.650327-0500\tkernel\tSandbox: hello(2520) deny(1) file-map-executable /private/var/run/com.apple.security.cryptexd/mnt/com.example.cryptex.sYr3Iw/usr/bin/libclang_rt.ubsan_ios_dynamic.dylib",
                timestamp: "2024-12-31T10:37:14.650327-05:00", process: "kernel", level: "error",
                message:
                    "Sandbox: hello(2520) deny(1) file-map-executable /private/var/run/com.apple.security.cryptexd/mnt/com.example.cryptex.sYr3Iw/usr/bin/libclang_rt.ubsan_ios_dynamic.dylib"
            ),
            Sample(
                line:
                    "default\t2025-01-25 13:16:11.109376 -0500\tRoam\tcom.msdrigg.roam\tECPWebsocketClient\tClearing handlers",
                timestamp: "2025-01-25T13:16:11.109376-05:00", process: "Roam", subsystem: "com.msdrigg.roam",
                category: "ECPWebsocketClient", level: "default", message: "Clearing handlers"),
        ])

    /// A `Process[pid:thread]` prefix with no timestamp (copies where the date was cut off); the name may be absent.
    public static let nslogUntimed = LogFormat(
        id: "nslog-untimed",
        title: "NSLog prefix without timestamp",
        origin: "NSLog lines whose date was cut off when they were pasted",
        pattern:
            #"^(?!\d{4}-\d\d-\d\d[ T])(?<process>[^\[\]:\t]*?)\[(?<pid>\d+):(?<thread>[0-9A-Fa-fx]+)\] ?(?<message>.*)$"#,
        timestamp: nil,
        samples: [
            Sample(
                line: "[7397:f803] -[ThirdViewController viewDidLoad]", process: "", pid: 7397, thread: "f803",
                message: "-[ThirdViewController viewDidLoad]"),
            Sample(
                line: "AppDelegate[12199:60b] App Delegate: applicationDidBecomeActive", process: "AppDelegate",
                pid: 12199, thread: "60b", message: "App Delegate: applicationDidBecomeActive"),
        ])

    /// Lines with no prefix at all: Xcode 15+ console copies, Swift `print`, game engines. Order only: no time,
    /// and no process unless one app is evident from the lines around them.
    public static let bare = LogFormat(
        id: "bare",
        title: "bare lines (no prefix)",
        origin: "Xcode 15+ console copies, Swift `print`, Unity and other engines' stdout",
        pattern: #"^(?<message>.*)$"#,
        timestamp: nil,
        isFallback: true,
        samples: [
            Sample(line: "-> applicationDidBecomeActive()", message: "-> applicationDidBecomeActive()"),
            Sample(line: "WARNING -> applicationDidReceiveMemoryWarning() "),
        ])
}

extension LinePrefix {
    /// The prefixes trace-analyze strips without configuration, in the order they are tried. A CI runner's timestamp
    /// comes before `grep -n`'s line numbers, whose file name its head (`2024-05-01T10:00:`) would pass for.
    public static let builtin: [LinePrefix] = [.indentation, .ciTimestamp, .grepLineNumber, .quote, .appium]

    /// Leading spaces and tabs (markdown code blocks, pasted captures).
    public static let indentation = LinePrefix(
        id: "indentation", title: "leading whitespace", pattern: #"[ \t]+"#,
        samples: [
            Sample(
                line: " 2013-11-06 14:43:24.413 BackgroundDemo[385:60b] applicationDidFinishLaunching",
                format: "nslog-classic"),
            Sample(
                line: "        2014-03-11 16:53:06.599 BackgroundDemo[2103:60b] applicationWillResignActive",
                format: "nslog-classic"),
        ])

    /// `grep -n` line numbers (`12:` on matches, `12-` on context lines), with a file name for several files.
    ///
    /// The file name is a run without spaces or colons holding a non-digit: the lookahead finds the non-digit, the
    /// possessive run takes the name whole. (`[^\s:]*[^\s:\d][^\s:]*:` said the same in quadratic time: 1.3 s on
    /// one 60 KiB line without a colon; this form is linear, and matches exactly what it matched.)
    public static let grepLineNumber = LinePrefix(
        id: "grep-line-number", title: "grep -n line numbers",
        pattern: #"(?:(?=[^\s:]*?[^\s:\d])[^\s:]++:)?\d+[:-]"#,
        samples: [
            // Written for this project: `grep -n` output over corpus file 18.
            Sample(
                line: "7:2019-05-04 10:46:18.564743-0500 CreatingStateLab[11053:1702596] applicationDidBecomeActive:",
                format: "nslog-modern"),
            Sample(
                line:
                    "session.log:12-Dec  9 09:14:50 Piotrs-iPhone EddyBckgrnd[32072] <Warning>: Received memory warning.",
                format: "device-syslog"),
        ])

    /// E-mail and Markdown quoting. Possessive: nothing follows the run, so giving some of it back never helps,
    /// and a greedy `(?:> ?)+` keeps a backtracking point per `> `, which overflows the JIT's stack on a long run.
    public static let quote = LinePrefix(
        id: "quote", title: "> quoting", pattern: #"(?:> ?)++"#,
        samples: [
            Sample(
                line: "> 2013-10-13 12:24:09.948 AppDelegate[12199:60b] App Delegate: didFinishLaunchingWithOptions",
                format: "nslog-classic")
        ])

    /// The ISO timestamp CI runners (GitHub Actions) put in front of every line of a raw job log.
    public static let ciTimestamp = LinePrefix(
        id: "ci-timestamp", title: "CI runner timestamps", pattern: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z "#,
        samples: [
            // Written for this project: the shape of a GitHub Actions raw log line around an NSLog line.
            Sample(
                line:
                    "2024-05-01T10:00:00.1234567Z 2019-05-04 10:46:18.564743-0500 CreatingStateLab[11053:1702596] applicationDidBecomeActive:",
                format: "nslog-modern")
        ])

    /// Appium's server log around each device syslog row: `[timestamp - ]info: [IOS_SYSLOG_ROW ] …`.
    public static let appium = LinePrefix(
        id: "appium", title: "Appium [IOS_SYSLOG_ROW] wrapper",
        pattern:
            #"(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[:.]\d{3} - )?(?:(?:info|debug|warn|error|dbug):? |\[(?:debug|info|iOSLog|[A-Za-z]+@[0-9a-f]+)\] )*\[IOS_SYSLOG_ROW(?: [^\]]*)?\] ?"#,
        samples: [
            Sample(
                line:
                    "info: [IOS_SYSLOG_ROW ] Jan  5 10:57:52 Thuynts-MacBook-Pro.local SpringBoard[2820] <Warning>: SIMToolkit plugin for SpringBoard initialized.",
                format: "device-syslog"),
            Sample(
                line:
                    "2015-06-19 20:34:05:820 - info: [IOS_SYSLOG_ROW ] Jun 19 15:34:05 vliao-mac.local identityservicesd[8224]: [Warning] NULL accountGUIDs passed to CFArrayRef",
                format: "syslog"),
            Sample(
                line:
                    "[iOSLog] [IOS_SYSLOG_ROW] Jun 17 10:49:11 Ramanaths-MacBook-Pro syslogd[876]: Configuration Notice:",
                format: "syslog"),
        ])
}
