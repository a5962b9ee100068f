import Quarry
extension HTMLReport {
  /// The page's CSS.
  static let style = #"""
    :root { --pending: #f2b233; --success: #3fa34d; --error: #d64545; --idle: #c9ced6; --unknown: #9aa0a8;
      --fetching: #2f6fd6; --paused: #e07b00; --running: #7a4fd0; --line: #d8dce2; --ink: #1d2430; --muted: #5f6b7a; }
    * { box-sizing: border-box; }
    body { margin: 0; padding: 12px 18px 40px; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: #f7f8fa; }
    h1 { font-size: 19px; margin: 0 0 4px; } h1 small { font-weight: normal; color: var(--muted); font-size: 13px; }
    h2 { font-size: 16px; margin: 0 0 4px; } h3 { font-size: 13px; margin: 10px 0 4px; color: var(--muted); }
    header p { margin: 0 0 8px; }
    code, pre, .mono { font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; font-size: 12px; }
    .badge { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 12px; color: #fff; }
    .c-pass { background: var(--success); } .c-differs { background: #b4329a; } .c-fail { background: var(--error); } .c-error { background: #6b2a2a; }
    .legend { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 4px 10px; margin-bottom: 8px; }
    .legend p { margin: 4px 0; } .key { margin-right: 10px; white-space: nowrap; } .key svg { vertical-align: -1px; margin-right: 3px; }
    .filters { display: flex; gap: 14px; align-items: center; margin-bottom: 6px; flex-wrap: wrap; }
    .table { max-height: 230px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
    table { border-collapse: collapse; width: 100%; }
    th, td { padding: 3px 8px; border-bottom: 1px solid #eef0f3; text-align: left; vertical-align: top; }
    th { position: sticky; top: 0; background: #eef1f5; z-index: 1; }
    td.num { text-align: right; } tbody tr { cursor: pointer; } tbody tr:hover { background: #f1f5ff; } tr.selected { background: #e4ecff; }
    #detail { margin-top: 12px; }
    .scenario { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; margin-bottom: 12px; }
    .details { background: #fff4f4; border-left: 3px solid var(--error); padding: 6px 8px; white-space: pre-wrap; overflow-wrap: anywhere; margin: 6px 0; }
    .diff { background: #fbeef8; border-left: 3px solid #b4329a; padding: 6px 8px; margin: 6px 0; }
    .diff div { white-space: pre-wrap; word-break: break-all; }
    .timeline { overflow-x: auto; border: 1px solid #eef0f3; border-radius: 4px; }
    .timeline svg { display: block; }
    .lane-bg { fill: #fafbfc; } .lane-bg.odd { fill: #f2f4f7; }
    .lane-label { font-size: 11px; fill: var(--ink); } .axis-label { font-size: 10px; fill: var(--muted); } .grid { stroke: #e6e9ee; stroke-width: 1; }
    .st-pending { fill: var(--pending); } .st-success { fill: var(--success); } .st-error { fill: var(--error); }
    .st-idle { fill: var(--idle); } .st-unknown { fill: var(--unknown); }
    .ac-idle { fill: transparent; } .ac-fetching { fill: var(--fetching); } .ac-paused { fill: var(--paused); } .ac-running { fill: var(--running); }
    .tk { stroke-width: 2; stroke: #555; } .tk-step { stroke: #222; } .tk-call { stroke: var(--fetching); } .tk-cache { stroke: #8a93a0; }
    .tk-result { stroke: #0f9aa8; } .tk-settle { stroke: #4a8a2a; } .tk-callback { stroke: var(--running); } .tk-abort { stroke: var(--paused); }
    .tk-final { stroke: #000; } .tk-storage { stroke: #a06a2c; } .tk-other { stroke: #b00; } .tk.failed { stroke: var(--error); }
    .check { fill: #222; } .check.failed { fill: var(--error); }
    .diffline { stroke: #e0138c; stroke-width: 2; stroke-dasharray: 4 2; } .diffmark { fill: none; stroke: #e0138c; stroke-width: 2; }
    .window { border-collapse: collapse; width: 100%; table-layout: fixed; margin-top: 6px; }
    .window td { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 11px; word-break: break-all; border-bottom: 1px solid #f0f0f0; }
    .window .n { width: 46px; color: var(--muted); } .window tr.first td { background: #fbd9ef; }
    .hint, .omitted { color: var(--muted); }
    .trace { margin-top: 4px; } .trace summary { cursor: pointer; color: var(--muted); }
    """#
}
