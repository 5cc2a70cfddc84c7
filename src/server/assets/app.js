// The chat page of Rules Arbiter. Plain JavaScript, no build step, no requests to any host
// but this one. Everything a person or the server wrote is put into the page with
// textContent (never innerHTML), so a question containing markup is shown, not run.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const thread = $("thread");
  const empty = $("empty");
  const form = $("ask");
  const input = $("question");
  const sendBtn = $("send");
  const positionBox = $("position");
  const positionStatus = $("position-status");
  const positionNote = $("position-note");
  const boardWrap = $("board-wrap");
  const boardImg = $("board");
  const squaresEl = $("squares");
  const setupToggle = $("setup-toggle");
  const setupEl = $("setup");
  const paletteEl = $("palette");
  const setupTurn = $("setup-turn");

  const START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  const EMPTY_FEN = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  // The piece-placement field of a FEN: eight ranks of pieces and digits.
  const PLACEMENT_RE = /^([pnbrqkPNBRQK1-8]{1,8}\/){7}[pnbrqkPNBRQK1-8]{1,8}$/;
  const PIECE_NAMES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };
  const GLYPHS = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };

  let busy = false;
  // The last position the server accepted: { fen, request } or null.
  let checked = null;
  let checkSeq = 0;
  let checkAbort = null;
  let previewTimer = 0;

  // ---------------------------------------------------------------- helpers

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    if (props) {
      for (const [k, v] of Object.entries(props)) {
        if (v === undefined || v === null || v === false) continue;
        if (k === "text") node.textContent = v;
        else if (k === "class") node.className = v;
        else if (k === "dataset") Object.assign(node.dataset, v);
        else if (k in node && typeof v !== "string") node[k] = v;
        else node.setAttribute(k, v === true ? "" : String(v));
      }
    }
    for (const c of children) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  /** A same-origin path from the server, or null: never a script URL or another host. */
  function safePath(url) {
    if (typeof url !== "string" || !url.startsWith("/") || url.startsWith("//") || url.includes("\\")) return null;
    return url;
  }

  /** Plain text from a string that may carry markup (snippets): parsed inertly, never run. */
  function plain(s) {
    if (typeof s !== "string") return "";
    if (!s.includes("<") && !s.includes("&")) return s;
    return new DOMParser().parseFromString(s, "text/html").body.textContent || "";
  }

  function boardUrl(fen, marks) {
    let url = "/board.svg?fen=" + encodeURIComponent(fen);
    if (marks && marks.length) url += "&marks=" + encodeURIComponent(marks.join(","));
    return url;
  }

  function errorMessage(data, status) {
    if (data && data.error && typeof data.error.message === "string") return data.error.message;
    return "The server answered with an error (HTTP " + status + ").";
  }

  async function postJSON(path, body, signal) {
    const res = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal,
    });
    let data = null;
    try {
      data = await res.json();
    } catch (_) {
      data = null;
    }
    if (!res.ok || !data || data.error) {
      const err = new Error(errorMessage(data, res.status));
      err.code = data && data.error ? data.error.code : "http_" + res.status;
      err.status = res.status;
      throw err;
    }
    return data;
  }

  // ---------------------------------------------------------------- the position panel

  /** What the position box holds, as the fields of an API request (or null when empty). */
  function positionRequest() {
    const text = positionBox.value.trim();
    if (!text) return null;
    const lines = text.split(/\r?\n/);
    const first = lines[0].trim();
    const placement = first.split(/\s+/)[0];
    if (PLACEMENT_RE.test(placement) && !first.startsWith("[")) {
      const rest = lines.slice(1).join(" ").trim();
      return rest ? { fen: first, moves: rest } : { fen: first };
    }
    return { pgn: text };
  }

  function describeRequest(req) {
    if (!req) return "";
    if (req.pgn) return "with the game pasted in the position box";
    if (req.moves) return "with the position " + req.fen + " and moves " + req.moves;
    return "with the position " + req.fen;
  }

  function setStatus(text, kind) {
    positionStatus.textContent = text;
    positionStatus.className = "status" + (kind ? " " + kind : "");
  }

  function showBoard(fen) {
    boardWrap.hidden = false;
    const url = boardUrl(fen);
    if (boardImg.getAttribute("src") !== url) boardImg.src = url;
    boardImg.alt = "Board diagram of the position " + fen;
    renderSquares(fen);
  }

  function summarize(report) {
    const parts = [report.turn === "black" ? "Black to move" : "White to move"];
    if (report.checkmate) parts.push("checkmate");
    else if (report.stalemate) parts.push("stalemate");
    else if (report.in_check) parts.push("in check");
    if (Array.isArray(report.legal_moves)) parts.push(report.legal_moves.length + " legal moves");
    if (report.history && report.history.length) parts.push("after " + report.history.length + " half-moves");
    return parts.join(" · ");
  }

  function updatePositionNote() {
    const req = positionRequest();
    positionNote.hidden = !req;
    positionNote.textContent = req ? "Asked about the position in the position box." : "";
  }

  /** Redraws the preview: a FEN at once, a PGN or moves once the server has replayed them. */
  function previewPosition() {
    clearTimeout(previewTimer);
    updatePositionNote();
    const req = positionRequest();
    if (checkAbort) checkAbort.abort();
    checkAbort = null;
    const seq = ++checkSeq;
    if (!req) {
      checked = null;
      boardWrap.hidden = true;
      boardImg.removeAttribute("src");
      setStatus("", "");
      return;
    }
    if (req.fen && !req.moves) showBoard(req.fen);
    setStatus(req.fen && !req.moves ? "Checking the position…" : "Replaying the moves…", "pending");
    const ctl = new AbortController();
    checkAbort = ctl;
    postJSON("/api/check", req, ctl.signal)
      .then((report) => {
        if (seq !== checkSeq) return;
        checked = { fen: report.fen, request: req };
        showBoard(report.fen);
        setStatus(summarize(report), "ok");
      })
      .catch((err) => {
        if (seq !== checkSeq || err.name === "AbortError") return;
        checked = null;
        if (!(req.fen && !req.moves)) boardWrap.hidden = true;
        setStatus(err.message, "error");
      });
  }

  function schedulePreview() {
    clearTimeout(previewTimer);
    updatePositionNote();
    previewTimer = setTimeout(previewPosition, 250);
  }

  boardImg.addEventListener("error", () => {
    if (boardImg.getAttribute("src")) setStatus("The board could not be drawn: the piece placement is not valid.", "error");
  });
  positionBox.addEventListener("input", schedulePreview);
  positionBox.addEventListener("paste", () => setTimeout(previewPosition, 0));
  $("position-clear").addEventListener("click", () => {
    positionBox.value = "";
    previewPosition();
    positionBox.focus();
  });

  // ---------------------------------------------------------------- setting up a position

  let selectedPiece = "K";

  function placementToArray(placement) {
    const board = [];
    for (const rank of placement.split("/")) {
      for (const ch of rank) {
        if (/[1-8]/.test(ch)) for (let i = 0; i < Number(ch); i++) board.push("");
        else board.push(ch);
      }
    }
    return board.length === 64 ? board : null;
  }

  function arrayToPlacement(board) {
    const ranks = [];
    for (let r = 0; r < 8; r++) {
      let s = "";
      let gap = 0;
      for (let f = 0; f < 8; f++) {
        const p = board[r * 8 + f];
        if (!p) gap++;
        else {
          if (gap) s += gap;
          gap = 0;
          s += p;
        }
      }
      if (gap) s += gap;
      ranks.push(s);
    }
    return ranks.join("/");
  }

  function squareName(index) {
    return "abcdefgh"[index % 8] + (8 - Math.floor(index / 8));
  }

  function pieceLabel(p) {
    if (!p) return "empty";
    return (p === p.toUpperCase() ? "white " : "black ") + PIECE_NAMES[p.toLowerCase()];
  }

  /** The FEN the editor works on: the box's FEN, the replayed game's, or the start position. */
  function editorFen() {
    const req = positionRequest();
    if (req && req.fen && !req.moves && placementToArray(req.fen.split(/\s+/)[0])) return req.fen;
    if (checked) return checked.fen;
    return START_FEN;
  }

  function castlingFor(board) {
    let rights = "";
    if (board[60] === "K" && board[63] === "R") rights += "K";
    if (board[60] === "K" && board[56] === "R") rights += "Q";
    if (board[4] === "k" && board[7] === "r") rights += "k";
    if (board[4] === "k" && board[0] === "r") rights += "q";
    return rights || "-";
  }

  function writeFen(board) {
    const fields = editorFen().split(/\s+/);
    const halfmove = /^\d+$/.test(fields[4] || "") ? fields[4] : "0";
    const fullmove = /^\d+$/.test(fields[5] || "") ? fields[5] : "1";
    const fen = [arrayToPlacement(board), setupTurn.value, castlingFor(board), "-", halfmove, fullmove].join(" ");
    positionBox.value = fen;
    previewPosition();
  }

  // The squares are one tab stop (a roving tabindex): Tab reaches the board, arrows move.
  let rovingIndex = 0;

  function renderSquares(fen) {
    if (setupEl.hidden) return;
    const board = placementToArray((fen || "").split(/\s+/)[0]);
    if (!board) return;
    const hadFocus = squaresEl.contains(document.activeElement);
    squaresEl.replaceChildren();
    board.forEach((p, i) => {
      const name = squareName(i);
      const btn = el("button", {
        type: "button",
        class: "sq",
        dataset: { index: String(i), square: name },
        "aria-label": name + ", " + pieceLabel(p),
      });
      btn.tabIndex = i === rovingIndex ? 0 : -1;
      squaresEl.append(btn);
    });
    if (hadFocus) squaresEl.children[rovingIndex].focus();
  }

  function focusSquare(i) {
    const old = squaresEl.children[rovingIndex];
    if (old) old.tabIndex = -1;
    rovingIndex = i;
    const btn = squaresEl.children[i];
    if (btn) {
      btn.tabIndex = 0;
      btn.focus();
    }
  }

  function buildPalette() {
    const pieces = ["K", "Q", "R", "B", "N", "P", "", "k", "q", "r", "b", "n", "p"];
    for (const p of pieces) {
      const id = "piece-" + (p ? (p === p.toUpperCase() ? "w" : "b") + p.toLowerCase() : "none");
      const radio = el("input", { type: "radio", name: "piece", id, value: p });
      if (p === selectedPiece) radio.checked = true;
      radio.addEventListener("change", () => {
        selectedPiece = p;
      });
      const label = el(
        "label",
        { for: id, class: "piece" + (p ? "" : " eraser"), title: p ? pieceLabel(p) : "Empty the square" },
        el("span", { "aria-hidden": "true", text: p ? GLYPHS[p] : "✕" }),
        el("span", { class: "sr-only", text: p ? pieceLabel(p) : "empty square" }),
      );
      paletteEl.append(el("span", { class: "piece-choice" }, radio, label));
    }
  }

  squaresEl.addEventListener("click", (ev) => {
    const btn = ev.target.closest("button.sq");
    if (!btn) return;
    const fen = editorFen();
    const board = placementToArray(fen.split(/\s+/)[0]);
    if (!board) return;
    const i = Number(btn.dataset.index);
    rovingIndex = i;
    board[i] = board[i] === selectedPiece ? "" : selectedPiece;
    writeFen(board);
  });

  squaresEl.addEventListener("focusin", (ev) => {
    const btn = ev.target.closest("button.sq");
    if (btn && Number(btn.dataset.index) !== rovingIndex) focusSquare(Number(btn.dataset.index));
  });

  squaresEl.addEventListener("keydown", (ev) => {
    const btn = ev.target.closest("button.sq");
    if (!btn) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -8, ArrowDown: 8 };
    if (!(ev.key in moves)) return;
    const i = Number(btn.dataset.index);
    let j = i + moves[ev.key];
    if ((ev.key === "ArrowLeft" && i % 8 === 0) || (ev.key === "ArrowRight" && i % 8 === 7)) j = i;
    if (j >= 0 && j < 64) focusSquare(j);
    ev.preventDefault();
  });

  function setSetup(open) {
    setupEl.hidden = !open;
    squaresEl.hidden = !open;
    boardWrap.classList.toggle("editing", open);
    setupToggle.setAttribute("aria-pressed", String(open));
    setupToggle.textContent = open ? "Done setting up" : "Set up by clicking squares";
    if (open) {
      const fen = editorFen();
      setupTurn.value = fen.split(/\s+/)[1] === "b" ? "b" : "w";
      if (!positionRequest() || positionBox.value.trim() !== fen) {
        positionBox.value = fen;
        previewPosition();
      } else {
        showBoard(fen);
      }
    }
  }

  setupToggle.addEventListener("click", () => setSetup(setupEl.hidden));
  setupTurn.addEventListener("change", () => {
    const board = placementToArray(editorFen().split(/\s+/)[0]);
    if (board) writeFen(board);
  });
  $("setup-start").addEventListener("click", () => {
    positionBox.value = START_FEN;
    setupTurn.value = "w";
    previewPosition();
  });
  $("setup-empty").addEventListener("click", () => {
    positionBox.value = EMPTY_FEN;
    setupTurn.value = "w";
    previewPosition();
  });
  buildPalette();

  // ---------------------------------------------------------------- the thread

  function scrollToItem(item) {
    if (item && item.scrollIntoView) item.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }

  function addQuestion(question, req) {
    empty.hidden = true;
    const item = el(
      "li",
      { class: "msg question" },
      el("span", { class: "who", text: "You asked" }),
      el("p", { class: "q-text", text: question }),
      req ? el("p", { class: "q-pos", text: describeRequest(req) }) : null,
    );
    thread.append(item);
    return item;
  }

  function addPending() {
    const item = el(
      "li",
      { class: "msg pending", "aria-label": "Waiting for the Arbiter" },
      el("span", { class: "who", text: "Arbiter" }),
      el("p", { class: "thinking", text: "Looking it up in the rulebook…" }),
    );
    thread.append(item);
    scrollToItem(item);
    return item;
  }

  function addError(message) {
    const item = el(
      "li",
      { class: "msg error", role: "alert" },
      el("span", { class: "who", text: "Arbiter" }),
      el("p", { class: "error-text", text: "Sorry — " + message }),
    );
    thread.append(item);
    scrollToItem(item);
    return item;
  }

  const BASIS = {
    position: "Checked on your position",
    rulebook: "From the rulebook",
    unknown: "Best match in the rulebook",
  };

  function claimValue(v) {
    if (v === true) return "yes";
    if (v === false) return "no";
    if (v === null || v === undefined) return "undecided";
    if (Array.isArray(v)) return v.length ? v.join(", ") : "none";
    return typeof v === "object" ? JSON.stringify(v) : String(v);
  }

  /** "castling_legal, white, kingside: no (3.8.2.2)" in words. */
  function claimText(c) {
    if (!c || typeof c !== "object") return String(c);
    const kind = typeof c.kind === "string" ? c.kind.replace(/_/g, " ") : "";
    const rest = [];
    for (const [k, v] of Object.entries(c)) {
      if (k === "kind" || k === "article" || k === "value") continue;
      rest.push(typeof v === "object" ? k + " " + JSON.stringify(v) : String(v).replace(/_/g, " "));
    }
    let text = kind ? kind.charAt(0).toUpperCase() + kind.slice(1) : "";
    if (rest.length) text += (text ? " — " : "") + rest.join(", ");
    if ("value" in c) text += ": " + claimValue(c.value);
    if (c.article) text += " (" + c.article + ")";
    return text;
  }

  /** "article-3" → "Article 3", "appendix-c" → "Appendix C", "rulings-clock-and-flag" → "Rulings: clock and flag". */
  function pageLabel(id) {
    const s = String(id);
    let m = /^(article|appendix|guidelines)-([a-z0-9]+)$/i.exec(s);
    if (m) return m[1].charAt(0).toUpperCase() + m[1].slice(1) + " " + m[2].toUpperCase();
    m = /^rulings-(.+)$/i.exec(s);
    if (m) return "Rulings: " + m[1].replace(/-/g, " ");
    const words = s.replace(/[-_]/g, " ");
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  /** The first paragraph, with its opening verdict ("No.", "Not right now:") set apart. */
  function verdictParagraph(text) {
    const p = el("p", { class: "verdict" });
    const m = /^(.{2,80}?[.:!?])(\s+)([\s\S]+)$/.exec(text);
    if (m && !/\d\.$/.test(m[1])) {
      p.append(el("strong", { text: m[1] }), m[2] + m[3]);
    } else {
      p.textContent = text;
    }
    return p;
  }

  function addAnswer(data) {
    const item = el("li", { class: "msg answer", dataset: { basis: String(data.basis || "") } });
    item.append(el("span", { class: "who", text: "Arbiter" }));

    const meta = el("p", { class: "meta" });
    if (data.basis && BASIS[data.basis]) meta.append(el("span", { class: "badge badge-" + data.basis, text: BASIS[data.basis] }));
    if (data.topic && data.topic !== "unknown") meta.append(el("span", { class: "topic", text: "Topic: " + String(data.topic).replace(/[_-]/g, " ") }));
    if (meta.childNodes.length) item.append(meta);

    const body = el("div", { class: "ruling" });
    const paragraphs = String(data.answer || "").split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
    // A second reading ("If your question is rather …") is set apart from the answer itself.
    const secondReading = (p) => p.startsWith("If your question is rather");
    paragraphs.forEach((p, i) =>
      body.append(i === 0 ? verdictParagraph(p) : el("p", { text: p, class: secondReading(p) ? "second-reading" : undefined })),
    );
    item.append(body);

    const report = data.position;
    if (report && typeof report.fen === "string") {
      const marks = Array.isArray(data.marks) ? data.marks.filter((m) => /^[a-h][1-8]$/.test(m)) : [];
      const fig = el("figure", { class: "diagram" });
      fig.append(
        el("img", {
          class: "board answer-board",
          src: boardUrl(report.fen, marks),
          width: "380",
          height: "380",
          alt: "Board diagram of " + report.fen + (marks.length ? ", marked squares " + marks.join(", ") : ""),
        }),
      );
      fig.append(el("figcaption", { text: (marks.length ? "Marked: " + marks.join(", ") + ". " : "") + summarize(report) + "." }));
      item.append(fig);
    }

    if (Array.isArray(data.claims) && data.claims.length) {
      const list = el("ul");
      for (const c of data.claims) list.append(el("li", { text: claimText(c) }));
      item.append(el("details", { class: "claims" }, el("summary", { text: "What the checker established (" + data.claims.length + ")" }), list));
    }

    const cites = Array.isArray(data.citations) ? data.citations : [];
    const sources = el("section", { class: "sources" });
    sources.append(el("h3", { text: "Sources" }));
    if (cites.length) {
      const ol = el("ol");
      for (const c of cites) {
        const label = [c.article, c.title].filter(Boolean).join(" ");
        const href = safePath(c.url);
        const link = href ? el("a", { href, text: label || c.url }) : el("span", { text: label });
        const li = el("li", null, link);
        if (c.page) li.append(" ", el("span", { class: "page", text: "— " + pageLabel(c.page) }));
        const snippet = plain(c.snippet).trim();
        if (snippet) li.append(el("p", { class: "snippet", text: snippet }));
        ol.append(li);
      }
      sources.append(ol);
    } else {
      sources.append(el("p", { class: "snippet", text: "No page of the rulebook matched; try the rulebook search." }));
    }
    item.append(sources);

    thread.append(item);
    scrollToItem(item);
    return item;
  }

  async function ask(question) {
    question = String(question || "").trim();
    if (!question || busy) return;
    busy = true;
    sendBtn.disabled = true;
    thread.setAttribute("aria-busy", "true");
    const req = positionRequest();
    addQuestion(question, req);
    input.value = "";
    autosize();
    const pending = addPending();
    try {
      const data = await postJSON("/api/ask", Object.assign({ question }, req || {}));
      pending.remove();
      addAnswer(data);
    } catch (err) {
      pending.remove();
      addError(err && err.status ? err.message : "the server could not be reached. Is it still running?");
    } finally {
      busy = false;
      sendBtn.disabled = false;
      thread.removeAttribute("aria-busy");
    }
  }

  function autosize() {
    input.style.height = "auto";
    input.style.height = Math.min(input.scrollHeight + 2, 200) + "px";
  }

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    ask(input.value);
  });
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
      ev.preventDefault();
      ask(input.value);
    }
  });
  input.addEventListener("input", autosize);

  $("common").addEventListener("click", (ev) => {
    const btn = ev.target.closest("button[data-q]");
    if (!btn) return;
    if (btn.dataset.fen) {
      positionBox.value = btn.dataset.fen;
      previewPosition();
    }
    input.value = btn.dataset.q;
    autosize();
    ask(btn.dataset.q);
  });

  // A position in the box when the page is restored from history.
  if (positionBox.value.trim()) previewPosition();
  updatePositionNote();
})();
