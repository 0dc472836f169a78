extension HTMLReporter {
    /// One colour per scenario, in the families of ``TextReporter``'s: greens for launches and returns, blues for
    /// the way to background, purples for interruptions, ambers for ends the OS chose, reds for what is worth a
    /// look. `dark` asks for dark text on the colour.
    static let scenarioColours: [(scenario: Scenario, colour: String, dark: Bool)] = [
        (.launch, "#1a7f37", false),
        (.returnToForeground, "#4ac26b", true),
        (.backgroundLaunch, "#1b7c83", false),
        (.enterBackground, "#0969da", false),
        (.interruptionToBackground, "#6639ba", false),
        (.interruption, "#a475f9", false),
        (.leftViaAlert, "#bf3989", false),
        (.termination, "#8c6c4a", false),
        (.killedInBackground, "#e16f24", true),
        (.memoryWarning, "#eac54f", true),
        (.killedInForeground, "#cf222e", false),
        (.unresolvedInterruption, "#ff8182", true),
    ]

    /// One colour per app state, for the swimlane bars.
    static let stateColours: [(state: AppState, colour: String)] = [
        (.active, "#2da44e"), (.inactive, "#d4a72c"), (.background, "#5a73c9"), (.launching, "#8dc3f2"),
        (.terminated, "#6e7781"), (.notRunning, "#afb8c1"), (.unknown, "#d0d7de"),
    ]

    static var styleSheet: String {
        var css = baseStyle
        for (scenario, colour, dark) in scenarioColours {
            let text = dark ? "#1f2328" : "#fff"
            css += ".chip.sc-\(scenario.rawValue){background:\(colour);color:\(text)}\n"
            css += ".episode.sc-\(scenario.rawValue) rect{fill:\(colour)}"
            css += ".episode.sc-\(scenario.rawValue) text.in{fill:\(text)}\n"
        }
        for (state, colour) in stateColours { css += ".st-\(state.rawValue){fill:\(colour)}\n" }
        return css
    }

    private static let baseStyle = """
        :root{--fg:#1f2328;--dim:#59636e;--line:#d1d9e0;--panel:#f6f8fa;--red:#cf222e;--red-bg:#ffebe9;\
        --green:#1a7f37;--green-bg:#dafbe1;--amber:#9a6700;--amber-bg:#fff8c5}
        *{box-sizing:border-box}
        body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans","Liberation Sans",\
        sans-serif;color:var(--fg);background:#fff}
        header,main,footer{max-width:1200px;margin:0 auto;padding:0 20px}
        header{padding-top:16px;padding-bottom:10px;border-bottom:1px solid var(--line)}
        h1{font-size:22px;margin:0 0 10px}
        h1 .version,h1 .subtitle{font-weight:400;color:var(--dim);font-size:15px}
        h2{font-size:18px;margin:26px 0 8px;padding-bottom:4px;border-bottom:1px solid var(--line)}
        h3{font-size:16px;margin:16px 0 2px}
        h4{font-size:14px;margin:0 0 2px}
        a{color:#0969da;text-decoration:none}
        a:hover{text-decoration:underline}
        nav a{margin-right:8px}
        .result{display:inline-block;padding:6px 14px;border-radius:6px;font-size:15px;margin:0 0 10px}
        .result b{margin-right:8px}
        .result span{margin-left:10px;font-size:12px;opacity:.8}
        .result.clean{background:var(--green-bg);color:var(--green)}
        .result.findings{background:var(--red-bg);color:var(--red)}
        .result.problem{background:var(--amber-bg);color:var(--amber)}
        .tiles{list-style:none;padding:0;margin:0 0 10px;display:flex;flex-wrap:wrap;gap:6px}
        .tile{border:1px solid var(--line);border-radius:6px;padding:2px 10px;background:var(--panel);color:var(--dim)}
        .tile b{color:var(--fg);font-size:16px;margin-right:3px}
        .tile.bad{border-color:#ffcecb;background:var(--red-bg);color:var(--red)}
        .tile.bad b{color:var(--red)}
        .tile.warn{border-color:#f5e0a0;background:var(--amber-bg);color:var(--amber)}
        .tile.warn b{color:var(--amber)}
        .budgets{margin:0 0 6px;color:var(--dim)}
        .budgets b{color:var(--fg)}
        .note,.dim,.meta,.milestones{color:var(--dim)}
        .meta{font-weight:400;font-size:13px;margin:0 0 6px}
        .notes{color:var(--dim);font-size:12.5px;margin:-4px 0 6px}
        .bad-text{color:var(--red)}
        .ok-text{color:var(--green)}
        .warn-text{color:var(--amber)}
        article.app{border:1px solid var(--line);border-radius:8px;padding:10px 16px 4px;margin:10px 0;display:grid;\
        grid-template-columns:minmax(0,1fr) 490px;gap:0 20px;align-items:start}
        @media (max-width:1100px){article.app{grid-template-columns:minmax(0,1fr)}}
        article.app h3{margin-top:0}
        .app-charts{padding-top:4px}
        .no-chart{color:var(--dim);font-size:13px;margin:28px 0;text-align:center}
        .app-figures{overflow-x:auto}
        table.stats{font-size:13px}
        table.stats th,table.stats td{padding:2px 6px}
        table.stats thead th{white-space:normal;vertical-align:bottom}
        article.process{border-top:1px solid var(--line);padding:10px 0 4px}
        table{border-collapse:collapse;font-variant-numeric:tabular-nums}
        th,td{padding:3px 10px;text-align:right;border-bottom:1px solid #eaeef2;white-space:nowrap}
        thead th{font-weight:600;color:var(--dim);font-size:12px;border-bottom:1px solid var(--line)}
        tbody th{text-align:left;font-weight:600}
        tr.empty td{color:var(--dim)}
        table.inputs td:first-child,table.inputs td:nth-child(2),table.more-processes td:first-child{text-align:left}
        table.inputs{width:100%}
        table.inputs thead th{white-space:normal;vertical-align:bottom}
        table.inputs thead th:first-child,table.inputs thead th:nth-child(2){text-align:left}
        table.inputs td:first-child{white-space:normal;overflow-wrap:anywhere;min-width:340px}
        tr.unreadable td{background:var(--red-bg);color:var(--red);text-align:left;white-space:normal}
        p.unreadable{color:var(--red)}
        .bad-cell{background:var(--red-bg);color:var(--red);font-weight:600}
        .warn-cell{background:var(--amber-bg);color:var(--amber)}
        dl.counts{display:grid;grid-template-columns:max-content 1fr;gap:4px 12px;margin:8px 0;font-size:13px}
        dl.counts dt{color:var(--dim)}
        dl.counts dd{margin:0}
        .chip{display:inline-block;padding:0 7px;border-radius:9px;font-size:12px;line-height:18px;white-space:nowrap}
        .violation-chip{background:var(--red-bg);color:var(--red)}
        .exit-chip{background:#eaeef2}
        .warn-chip{background:var(--amber-bg);color:var(--amber)}
        .badge{display:inline-block;padding:0 7px;border-radius:9px;font-size:11.5px;font-weight:600;line-height:18px}
        .badge.bad{background:var(--red);color:#fff}
        .badge.warn{background:var(--amber-bg);color:var(--amber)}
        .legend{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:4px 12px;font-size:12.5px}
        .legend p{margin:4px 0}
        .key{display:inline-block;width:14px;height:10px;vertical-align:-1px}
        .key-state{background:#2da44e}
        .key-launch{background:#2da44e22;border:1px solid #2da44e}
        .key-violation{background:var(--red);width:3px;height:13px}
        .key-exit{border-left:2px dashed var(--fg);width:2px;height:13px}
        .cap{background:var(--amber-bg);color:var(--amber);padding:6px 10px;border-radius:6px}
        .launch-line{margin:0 0 2px;font-size:13px}
        .milestones{font-size:12px}
        .axis-note{font-size:12px;color:var(--amber);margin:2px 0}
        table.findings{width:100%;font-size:12.5px;margin:0 0 6px;table-layout:fixed}
        table.findings td.line{width:104px}
        table.findings td.time{width:118px}
        table.findings td.what{width:220px}
        table.findings td{text-align:left;vertical-align:top;padding:2px 8px;white-space:normal}
        table.findings td.line,table.findings td.time{color:var(--dim);white-space:nowrap}
        tr.violation-row td{background:#fff5f5}
        .conf-low{color:var(--amber)}
        .conf-medium,.conf-high{color:var(--dim)}
        footer{color:var(--dim);font-size:12px;padding-top:14px;padding-bottom:24px;border-top:1px solid var(--line);\
        margin-top:30px}
        svg{display:block;max-width:100%;height:auto;margin:4px 0}
        svg text{font-size:11px;fill:var(--fg)}
        svg .end{text-anchor:end}
        .lane{fill:var(--panel)}
        .lane-label{text-anchor:end;fill:var(--dim)}
        .scene-lane{fill:#eef1f4}
        .seg-label{font-size:10px;fill:#fff}
        .seg-label.dark{fill:var(--fg)}
        .step{stroke:#8c959f;stroke-width:1}
        .ev{fill:#fff;stroke:#1f2328;stroke-width:1}
        .episode text{font-size:11px}
        .launch-span rect{fill:#2da44e;fill-opacity:.09;stroke:#2da44e;stroke-opacity:.35}
        .launch-span.over rect{fill:var(--red);fill-opacity:.1;stroke:var(--red);stroke-opacity:.45}
        .launch-span.unchecked rect{fill:#8c959f;fill-opacity:.1;stroke:#8c959f;stroke-opacity:.4}
        .launch-span text{font-size:10px;fill:var(--green);font-weight:600}
        .launch-span.over text{fill:var(--red)}
        .launch-span.unchecked text{fill:var(--dim)}
        .violation line{stroke:var(--red);stroke-width:1.5}
        .violation path{fill:var(--red)}
        .exit line{stroke:var(--fg);stroke-width:1.5;stroke-dasharray:3 2}
        .exit text{font-size:10px;font-weight:600}
        .axis line{stroke:#8c959f}
        .axis line.gap{stroke:#fff;stroke-width:2;stroke-dasharray:3 3}
        .tick{font-size:10px;text-anchor:middle;fill:var(--dim)}
        svg .gap-label{font-size:10px;text-anchor:middle;fill:#8c959f;font-style:italic}
        .over-zone{fill:var(--red-bg)}
        .dot{stroke:#fff;stroke-width:1}
        .dot.ok,.bar .ok{fill:#2da44e}
        .dot.over,.bar .over{fill:var(--red)}
        .budget-line{stroke:var(--red);stroke-width:2}
        .budget text{fill:var(--red);font-size:10px;font-weight:600}
        .pct line{stroke:#59636e;stroke-dasharray:3 2}
        .pct text{font-size:10px;fill:var(--dim)}
        .chart-label{font-size:12px;font-weight:600}
        .chart-count{fill:var(--dim)}

        """
}
