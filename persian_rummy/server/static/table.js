// The page of a seat or spectator: draws the table from each frame the server sends over the
// WebSocket (the seat's view as the library's JSON, its legal actions and the log in words) and
// turns taps, clicks and keys into the seat's actions. The server decides everything: every
// control is enabled by the legal actions of the frame shown, an action the page is unsure of
// is sent, and a refusal shows the server's reason. The others' moves are shown one at a time,
// each card travelling from its seat, at the pace the person sets. The protocol's names and
// numbers (its version, the seats, the teams, the cards' notation, the meld marks, the bots'
// levels, the close codes) are the server's, read from the page: this script keeps no copy.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const main = $("table");
  const names = JSON.parse(main.dataset.protocol);
  const PROTOCOL = names.protocol;
  const SEATS = names.seats;
  const TEAMS = names.teams;
  const CLOSED = names.close_codes;
  const JOKER = names.joker;
  const MARKS = names.meld_marks;
  const LEVELS = names.levels;
  // By letter, each with its place in the library's order (for sorting a hand).
  const SUITS = Object.fromEntries(names.suits.map((suit, order) => [suit.letter, { ...suit, order }]));
  const RANKS = Object.fromEntries(names.ranks.map((rank, order) => [rank.letter, { ...rank, order }]));
  const token = location.pathname.split("/").pop();
  const mySeat = main.dataset.seat === "" ? null : Number(main.dataset.seat);
  const hintsOn = mySeat !== null && main.dataset.hints === "";
  const status = $("status");
  const sheet = $("sheet");
  const orderKey = "persian-rummy-order-" + token;
  const paceKey = "persian-rummy-pace";
  // Milliseconds a card of another seat's move takes to travel, by pace, and the pace of a
  // person who picked none: the server's, read from the pace's options.
  const PACES = Object.fromEntries([...$("pace").options].map((option) => [option.value, Number(option.dataset.ms)]));
  const DEFAULT_PACE = [...$("pace").options].find((option) => option.defaultSelected).value;
  const teamOf = (seat) => seat % 2;  // R3: seats 0 and 2, 1 and 3
  let frame = null;
  let view = null;
  let selected = new Set();  // indices into the hand as drawn
  let handCards = [];  // the hand's cards in the order shown
  let handText = null;  // the hand the selection belongs to
  let rover = 0;  // the hand's card that Tab reaches
  let hinted = null;  // the hint shown for this frame: {seq, action}
  let sheetFrame = null;  // the latest frame with a score sheet
  let socket = null;
  let retry = 500;
  let requests = 0;
  let lost = false;
  let fresh = true;
  let lastAction = null;  // the log's latest action entry
  let sound = false;
  let drag = null;
  let fingerDrag = null;
  let noTapUntil = 0;
  const queue = [];  // frames and hints not shown yet, in order
  let playing = false;
  let moving = false;  // another seat's move is being shown: nothing may be done until it lands
  const wakers = new Set();

  // --- cards as text ---------------------------------------------------------------------
  // A card's text is its rank's letter and its suit's (the library's notation), or the joker's.
  const isJoker = (card) => card === JOKER.text;
  const face = (card) => (isJoker(card) ? JOKER.face : RANKS[card[0]].face + SUITS[card[1]].symbol);
  const spoken = (card) => (isJoker(card) ? JOKER.name : RANKS[card[0]].name + " of " + SUITS[card[1]].name);
  const cardsOf = (text) => (text ? text.split(" ").filter(Boolean) : []);
  const rankOrder = (card) => (isJoker(card) ? 99 : RANKS[card[0]].order);
  const suitOrder = (card) => (isJoker(card) ? 9 : SUITS[card[1]].order);
  // A meld's card: its text, then the mark of how it came (melded or laid off) and its seat.
  function meldCard(text) {
    const card = text.slice(0, JOKER.text.length);
    const rest = text.slice(card.length);
    const mark = [MARKS.melded, MARKS.laid_off].find((candidate) => rest.startsWith(candidate));
    return { card, laidOff: mark === MARKS.laid_off, seat: Number(rest.slice(mark.length)) };
  }

  function cardElement(card, tag, extra) {
    const element = document.createElement(tag || "span");
    element.className = "card " + (isJoker(card) ? JOKER.name : SUITS[card[1]].name) + (extra ? " " + extra : "");
    element.dataset.card = card;
    const rank = document.createElement("span");
    rank.className = "rank";
    rank.textContent = isJoker(card) ? "★" : RANKS[card[0]].face;
    const suit = document.createElement("span");
    suit.className = "suit";
    suit.textContent = isJoker(card) ? JOKER.face : SUITS[card[1]].symbol;
    element.append(rank, suit);
    if (tag !== "button") element.setAttribute("aria-label", spoken(card));
    return element;
  }

  function seatName(seat) {
    return SEATS[seat] + (frame && frame.names[seat] !== SEATS[seat] ? " (" + frame.names[seat] + ")" : "");
  }

  // A bot seat by its level's name, else by its bot's spec.
  function botName(kind) {
    const level = LEVELS.find((candidate) => candidate.bot === kind);
    return level ? level.name : kind;
  }

  // --- talking to the server -------------------------------------------------------------
  function say(text, kind) {
    status.textContent = text;
    status.className = kind || "";
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws/" + token);
    fresh = true;
    socket.onopen = () => { retry = 500; lost = false; $("retake").hidden = true; };
    socket.onmessage = (event) => receive(JSON.parse(event.data));
    socket.onclose = (event) => {
      if (frame && frame.phase === "game_over" && event.code === 1000) return;
      if (event.code === CLOSED.unknown_token || event.code === CLOSED.expired) { say(event.code === CLOSED.unknown_token ? "This link opens no table." : "This table expired.", "error"); loseSeat(false); return; }
      if (event.code === CLOSED.superseded) { say("This seat was opened in another window: play there, or take it back here.", "error"); loseSeat(true); return; }
      say("The connection dropped: reconnecting…", "error");
      loseSeat(true);
      setTimeout(() => { if (lost) connect(); }, retry);
      retry = Math.min(retry * 2, 10000);
    };
  }

  function loseSeat(offer) {
    lost = true;
    $("retake").hidden = !offer || mySeat === null;
    draw();
  }

  function receive(message) {
    if (message.type === "welcome" || message.type === "state") {
      if (message.protocol !== PROTOCOL) { say("This page is out of date: reload it.", "error"); return; }
    }
    if (message.type === "state") {
      if (fresh) {
        // A connection's first frame holds the whole log and the table as it is now.
        fresh = false;
        queue.length = 0;
        // The whole log at once is not read out: only the moves that come after it.
        $("log").setAttribute("aria-busy", "true");
        $("log").replaceChildren();
        lastAction = null;
        show(message);
        $("log").removeAttribute("aria-busy");
        return;
      }
      queue.push(message);
      play();
    } else if (message.type === "hint") {
      queue.push(message);
      play();
    } else if (message.type === "error") {
      say(message.reason, "error");
    } else if (message.type === "ack") {
      if ($("action")) $("action").value = "";
    }
  }

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN || lost) { say("You are not connected to your seat.", "error"); return; }
    requests += 1;
    socket.send(JSON.stringify({ ...message, id: requests }));
  }
  const act = (action) => send({ type: "action", action: action });

  // --- following the others' moves ---------------------------------------------------------
  function paceName() {
    let saved = null;
    try { saved = localStorage.getItem(paceKey); } catch (error) { saved = null; }
    return Object.hasOwn(PACES, saved) ? saved : DEFAULT_PACE;
  }

  function setPace(name) {
    try { localStorage.setItem(paceKey, name); } catch (error) { /* private browsing */ }
    $("pace").value = name;
    if (!PACES[name]) {
      // Instant: what is under way lands now, and what waits is shown at once.
      document.getAnimations().filter((animation) => animation.id === "travel").forEach((animation) => animation.finish());
      wakers.forEach((wake) => wake());
    }
  }

  function wait(ms) {
    return new Promise((resolve) => {
      const wake = () => { wakers.delete(wake); clearTimeout(timer); resolve(); };
      const timer = setTimeout(wake, ms);
      wakers.add(wake);
    });
  }

  async function play() {
    if (playing) return;
    playing = true;
    try {
      while (queue.length && !sheet.open) {
        const message = queue.shift();
        if (message.type === "hint") showHint(message);
        else await show(message);
      }
    } finally {
      playing = false;
    }
  }

  // Where each card of another seat's moves in ``message`` comes from, read before the frame
  // is drawn (the cards taken from the pile are gone after it).
  function flights(message) {
    const ms = PACES[paceName()];
    if (!ms || document.hidden || !frame) return [];
    const moves = [];
    message.log.forEach((entry) => {
      if (entry.kind !== "action" || entry.seat === mySeat) return;
      const words = entry.action.split(" ");
      const move = { entry, kind: words[0], words, from: [], ms };
      if (move.kind === "draw") move.from = [{ rect: $("stock").getBoundingClientRect(), card: null }];
      else if (move.kind === "take") {
        move.from = [...$("pile").querySelectorAll("[data-pile]")]
          .filter((element) => Number(element.dataset.pile) >= Number(words[1]))
          .map((element) => ({ rect: element.getBoundingClientRect(), card: element.dataset.card }));
      }
      moves.push(move);
    });
    return moves;
  }

  function seatBox(seat) {
    const box = $("seats").querySelector('[data-seat="' + seat + '"]');
    return box ? box.getBoundingClientRect() : null;
  }

  function flyer(card) {
    const element = card ? cardElement(card) : document.createElement("span");
    if (!card) element.className = "card face-down";
    element.removeAttribute("data-card");
    element.removeAttribute("aria-label");
    element.setAttribute("aria-hidden", "true");
    element.classList.add("flying");
    return element;
  }

  // A card flies from the centre of ``from`` to the centre of ``to`` (screen rectangles) in
  // ``ms``, as big as ``size``: a copy of it in the page's flight layer, over everything; the
  // card in its place (``landing``) is hidden until it lands.
  function fly(card, from, to, ms, seat, size, landing) {
    const element = flyer(card);
    element.dataset.mover = String(seat);
    const left = to.left + to.width / 2 - size.width / 2;
    const top = to.top + to.height / 2 - size.height / 2;
    Object.assign(element.style, { left: left + "px", top: top + "px", width: size.width + "px", height: size.height + "px" });
    $("flight").append(element);
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    if (landing) landing.style.visibility = "hidden";
    const animation = element.animate(
      [{ transform: "translate(" + dx + "px, " + dy + "px) scale(0.8)" }, { transform: "none" }],
      { duration: ms, easing: "ease-in-out", fill: "forwards" },
    );
    animation.id = "travel";
    return animation.finished.catch(() => null).then(() => {
      element.remove();
      if (landing) landing.style.visibility = "";
    });
  }

  // The size of a card of the hand (a card on its way to a seat).
  function cardSize() {
    const style = getComputedStyle(document.documentElement);
    return { width: parseFloat(style.getPropertyValue("--card-w")), height: parseFloat(style.getPropertyValue("--card-h")) };
  }

  async function show(message, moves) {
    moves = moves || flights(message);
    moving = moves.length > 0;
    frame = message;
    view = message.view;
    if (!lost) status.className = "";  // something happened: an earlier refusal is old news
    message.log.forEach(addLog);
    if (view.hand !== handText) { selected = new Set(); handText = view.hand; }
    hinted = null;
    if (message.sheet) sheetFrame = message;
    draw();
    if (message.sheet) showSheet();  // it stays open over the next deal until the person closes it
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    const landings = [];
    for (const move of moves) {
      const box = seatBox(move.entry.seat);
      if (!box) continue;
      if (move.kind === "draw" || move.kind === "take") {
        move.from.forEach((start) => landings.push(still ? null : fly(start.card, start.rect, box, move.ms, move.entry.seat, start.card ? start.rect : cardSize())));
      } else if (move.kind === "discard") {
        const top = [...$("pile").querySelectorAll("[data-pile]")].pop();
        const rect = top ? top.getBoundingClientRect() : null;
        if (top && !still) landings.push(fly(top.dataset.card, box, rect, move.ms, move.entry.seat, rect, top));
      } else if (move.kind === "meld" || move.kind === "layoff") {
        const meld = move.kind === "meld" ? [...$("melds").querySelectorAll("[data-meld]")].pop()
          : $("melds").querySelector('[data-meld="' + move.words[2] + '"]');
        if (meld) meld.scrollIntoView({ block: "nearest" });
        const wanted = move.words.slice(1, move.kind === "meld" ? undefined : 2);
        const cards = meld ? [...meld.querySelectorAll("[data-card]")] : [];
        wanted.forEach((card) => {
          const at = cards.findIndex((element) => element.dataset.card === card);
          if (at < 0 || still) return;
          const element = cards.splice(at, 1)[0];
          const rect = element.getBoundingClientRect();
          landings.push(fly(card, box, rect, move.ms, move.entry.seat, rect, element));
        });
      }
    }
    if (moves.length) {
      await Promise.all(landings.filter(Boolean));
      // A moment to read it, then the next (where motion is reduced, the travel's time too).
      await wait((still ? moves[0].ms : 0) + moves[0].ms / 3);
      moving = false;
      draw();
    }
  }

  // A bot seat to move whose move the page has not received: once the page has shown every
  // frame it holds, the bot is still choosing (or waiting its turn's pause), and says so.
  function thinking(seat) {
    return Boolean(frame) && !lost && !moving && queue.length === 0 && frame.turn === seat
      && (frame.phase === "draw" || frame.phase === "meld") && frame.seats[seat] !== names.human;
  }

  // --- what may be done ------------------------------------------------------------------
  const legal = () => (frame && !lost && !moving ? frame.legal : []);
  const isLegal = (action) => legal().includes(action);
  const myTurn = () => Boolean(frame) && !lost && mySeat !== null && frame.turn === mySeat && legal().length > 0;
  const chosen = () => [...selected].sort((a, b) => a - b).map((index) => handCards[index]);
  const sameCards = (a, b) => a.slice().sort().join(" ") === b.slice().sort().join(" ");
  const legalOf = (verb) => legal().filter((action) => action.startsWith(verb + " "));

  function meldAction() {
    const cards = chosen();
    return legalOf("meld").find((action) => sameCards(action.split(" ").slice(1), cards));
  }

  function layOffTargets() {
    const cards = chosen();
    if (cards.length !== 1) return new Set();
    return new Set(legalOf("layoff " + cards[0]).map((action) => Number(action.split(" ")[2])));
  }

  // --- drawing ---------------------------------------------------------------------------
  function orderedHand() {
    const cards = cardsOf(view && view.hand);
    let saved = [];
    try { saved = JSON.parse(localStorage.getItem(orderKey) || "[]"); } catch (error) { saved = []; }
    const left = cards.slice();
    const ordered = [];
    saved.forEach((card) => { const at = left.indexOf(card); if (at >= 0) { ordered.push(card); left.splice(at, 1); } });
    return ordered.concat(left);
  }

  function keepOrder(cards) {
    try { localStorage.setItem(orderKey, JSON.stringify(cards)); } catch (error) { /* private browsing */ }
  }

  function draw() {
    if (!frame) return;
    const keep = focusKey();
    // Written when they change only: scripts that watch them see each frame once.
    [main, $("board")].forEach((element) => {
      if (element.dataset.seq !== String(frame.seq)) element.dataset.seq = String(frame.seq);
      if (element.dataset.phase !== frame.phase) element.dataset.phase = frame.phase;
    });
    drawScores();
    drawSeats();
    drawCentre();
    drawMelds();
    if (mySeat !== null) { drawHand(); drawControls(); }
    markLast();
    $("end").hidden = frame.phase !== "game_over";
    if (status.className !== "error" || myTurn()) say(describe(), "");
    document.title = (myTurn() ? "● Your turn · " : "") + "Persian Rummy";
    main.classList.toggle("lost", lost);
    cue();
    restoreFocus(keep);
  }

  function drawScores() {
    const deal = document.createElement("span");
    deal.className = "deal";
    deal.textContent = "Deal " + frame.deal + " of " + frame.deals;
    const parts = TEAMS.map((team, index) => {
      const item = document.createElement("span");
      item.className = "team";
      item.dataset.team = String(index);
      item.textContent = team + (mySeat !== null && teamOf(mySeat) === index ? " (you)" : "") + ": " + frame.scores[index];
      if (frame.phase !== "game_over") {
        const down = document.createElement("span");
        down.className = "on-table";
        down.textContent = " · " + frame.on_table[index] + " on the table";
        item.append(down);
      }
      return item;
    });
    $("scores").replaceChildren(deal, ...parts);
  }

  function drawSeats() {
    const seats = [];
    for (let offset = 1; offset < 4; offset += 1) seats.push(((mySeat === null ? 2 : mySeat) + offset) % 4);
    if (mySeat === null) seats.push(2);
    $("seats").replaceChildren(...seats.map((seat) => {
      const box = document.createElement("div");
      box.className = "seat" + (frame.turn === seat && frame.phase !== "game_over" ? " to-move" : "") + (thinking(seat) ? " thinking" : "");
      box.dataset.seat = String(seat);
      const kind = frame.seats[seat] !== names.human ? botName(frame.seats[seat]) : "";
      const size = view.hand_sizes[seat];
      const counted = size + (size === 1 ? " card" : " cards");
      box.title = seatName(seat) + ", " + TEAMS[teamOf(seat)] + (kind ? ", " + kind + " bot" : "") + ": " + counted;
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = seatName(seat);
      if (thinking(seat)) {
        const note = document.createElement("span");
        note.className = "note";
        note.textContent = " thinking…";
        name.append(note);
      }
      const count = document.createElement("span");
      count.className = "count";
      count.textContent = counted + " · " + (kind || TEAMS[teamOf(seat)]);
      const backs = document.createElement("span");
      backs.className = "backs";
      backs.setAttribute("aria-hidden", "true");
      const revealed = view.revealed_hands ? view.revealed_hands[seat] : null;
      if (revealed !== null && revealed !== undefined) {
        box.classList.add("revealed");
        cardsOf(revealed).forEach((card) => backs.append(cardElement(card)));
      } else for (let i = 0; i < Math.min(size, 14); i += 1) { const back = document.createElement("span"); back.className = "back"; backs.append(back); }
      box.append(name, count, backs);
      return box;
    }));
  }

  function drawCentre() {
    const stock = $("stock");
    stock.dataset.stock = String(view.stock_size);
    stock.textContent = "Stock: " + view.stock_size;
    const canDraw = isLegal("draw");
    stock.classList.toggle("lit", canDraw);
    stock.classList.toggle("hinted", Boolean(hinted && hinted.action === "draw"));
    stock.disabled = !canDraw;
    stock.setAttribute("aria-label", "Stock, " + view.stock_size + " cards" + (canDraw ? ": draw a card" : ""));
    const pile = cardsOf(view.discard_pile);
    const box = $("pile");
    box.replaceChildren(...pile.map((card, index) => {
      const take = "take " + index;
      const element = cardElement(card, "button", isLegal(take) ? "lit" : "");
      element.type = "button";
      element.dataset.pile = String(index);
      element.disabled = !isLegal(take);
      element.classList.toggle("hinted", Boolean(hinted && hinted.action === take));
      const above = pile.length - index - 1;
      element.setAttribute("aria-label", spoken(card) + ", discard pile card " + (index + 1) + (above ? ": take it and the " + above + " above it" : ": take it"));
      element.addEventListener("click", () => act(take));
      return element;
    }));
    if (!pile.length) box.textContent = "(empty)";
    box.scrollLeft = box.scrollWidth;  // the top card in sight
  }

  function drawMelds() {
    const targets = layOffTargets();
    const open = new Set(legalOf("layoff").map((action) => Number(action.split(" ")[2])));
    const one = chosen();
    const melds = (view.melds || []).map((text, index) => {
      const parts = cardsOf(text).map(meldCard);
      // The meld is the seat's that laid it down (its first card melded, not laid off: R16).
      const owner = parts.find((part) => !part.laidOff).seat;
      const element = document.createElement("button");
      element.type = "button";
      element.className = "meld" + (targets.has(index) ? " lit" : "");
      element.dataset.meld = String(index);
      element.dataset.owner = String(owner);
      const label = document.createElement("span");
      label.className = "owner";
      label.textContent = "#" + index + " " + SEATS[owner];
      element.append(label, ...parts.map((part) => {
        const card = cardElement(part.card, "span", part.laidOff ? "laid-off" : "");
        if (part.laidOff) {
          card.dataset.credit = String(part.seat);
          const credit = document.createElement("span");
          credit.className = "credit";
          credit.textContent = SEATS[part.seat][0];
          card.append(credit);
          card.setAttribute("aria-label", spoken(part.card) + " (laid off by " + SEATS[part.seat] + ", credited to " + TEAMS[teamOf(part.seat)] + ")");
        }
        return card;
      }));
      const said = parts.map((part) => face(part.card) + (part.laidOff ? " (laid off by " + SEATS[part.seat] + ")" : "")).join(" ");
      element.setAttribute("aria-label", (targets.has(index) ? "Lay off " + face(one[0]) + " on " : "") + "meld " + index + " of " + SEATS[owner] + ": " + said);
      // With nothing selected, a meld that may take a card says which to select; with a
      // selection, only a meld it may be laid off on is enabled.
      element.disabled = one.length ? !targets.has(index) : !open.has(index);
      element.addEventListener("click", () => {
        const cards = chosen();
        if (cards.length !== 1) { say("Select one card of your hand to lay off on meld " + index + ".", "error"); return; }
        act("layoff " + cards[0] + " " + index);
      });
      return element;
    });
    if (!melds.length) { const none = document.createElement("p"); none.textContent = "No melds yet."; melds.push(none); }
    $("melds").replaceChildren(...melds);
    const lit = $("melds").querySelector(".meld.lit");
    if (lit) lit.scrollIntoView({ block: "nearest" });
  }

  function moveCard(from, to) {
    // The hand's card at ``from`` moves to ``to``; the order is kept in the browser.
    if (from === to || to < 0 || to >= handCards.length) return;
    const cards = handCards.slice();
    const [moved] = cards.splice(from, 1);
    cards.splice(to, 0, moved);
    keepOrder(cards);
    selected = new Set();
    draw();
  }

  function focusCard(index) {
    const cards = [...$("hand").querySelectorAll("[data-index]")];
    if (!cards.length) return;
    rover = Math.max(0, Math.min(index, cards.length - 1));
    cards.forEach((card, at) => { card.tabIndex = at === rover ? 0 : -1; });
    cards[rover].focus();
  }

  function reselect() {
    drawMelds();
    drawControls();
    markLast();
  }

  function drawHand() {
    handCards = orderedHand();
    rover = Math.min(rover, Math.max(handCards.length - 1, 0));
    const must = view.must_meld;
    let mustMarked = false;
    let drawnMarked = false;
    const drawn = lastAction && lastAction.seat === mySeat && lastAction.action === "draw" && frame.turn === mySeat ? lastAction.cards : [];
    $("hand").replaceChildren(...handCards.map((card, index) => {
      let extra = "";
      if (must && card === must && !mustMarked) { extra += " must"; mustMarked = true; }
      if (drawn.includes(card) && !drawnMarked) { extra += " drawn"; drawnMarked = true; }
      const element = cardElement(card, "button", extra.trim());
      element.type = "button";
      element.draggable = true;
      element.dataset.index = String(index);
      element.tabIndex = index === rover ? 0 : -1;  // one stop for the hand: arrows move within it
      element.setAttribute("aria-pressed", String(selected.has(index)));
      element.setAttribute("aria-label", spoken(card) + (extra.includes("must") ? " (must be melded now)" : "") + (extra.includes("drawn") ? " (just drawn)" : ""));
      element.addEventListener("focus", () => { if (rover !== index) focusCard(index); });
      element.addEventListener("click", () => {
        if (performance.now() < noTapUntil) return;
        if (selected.has(index)) selected.delete(index); else selected.add(index);
        element.setAttribute("aria-pressed", String(selected.has(index)));
        reselect();
      });
      element.addEventListener("dragstart", (event) => { drag = index; event.dataTransfer.effectAllowed = "move"; });
      element.addEventListener("dragover", (event) => event.preventDefault());
      element.addEventListener("drop", (event) => {
        event.preventDefault();
        const from = drag;
        drag = null;
        if (from !== null) moveCard(from, index);
      });
      // A finger drags a card sideways to move it (HTML drag and drop is a mouse's): the
      // cards scroll the page up and down only (touch-action: pan-y), so a sideways move
      // reaches the card, and the card under the finger where it lifts is the new place.
      element.addEventListener("pointerdown", (event) => {
        if (event.pointerType === "touch") fingerDrag = { from: index, x: event.clientX, moved: false };
      });
      element.addEventListener("pointermove", (event) => {
        if (fingerDrag && fingerDrag.from === index && Math.abs(event.clientX - fingerDrag.x) > 12) fingerDrag.moved = true;
      });
      element.addEventListener("pointercancel", () => { fingerDrag = null; });
      element.addEventListener("pointerup", (event) => {
        const dragged = fingerDrag;
        fingerDrag = null;
        if (!dragged || dragged.from !== index || !dragged.moved) return;
        noTapUntil = performance.now() + 500;  // the lift is a move, not a tap that selects
        const under = document.elementFromPoint(event.clientX, event.clientY);
        const target = under && under.closest("#hand [data-index]");
        if (target) moveCard(index, Number(target.dataset.index));
      });
      element.addEventListener("keydown", (event) => {
        const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
        if (event.key === "Home" || event.key === "End") { event.preventDefault(); focusCard(event.key === "Home" ? 0 : handCards.length - 1); return; }
        if (!step) return;
        event.preventDefault();
        const to = index + step;
        if (to < 0 || to >= handCards.length) return;
        if (!event.altKey) { focusCard(to); return; }
        // Alt+arrow moves the card within the hand.
        const cards = handCards.slice();
        [cards[index], cards[to]] = [cards[to], cards[index]];
        keepOrder(cards);
        selected = new Set();
        rover = to;
        draw();
        focusCard(to);
      });
      return element;
    }));
  }

  // An action's button: its verb, the cards it would play, and why it may not be pressed now
  // (its description to a screen reader).
  function setLabel(button, verb, cards, why) {
    const detail = document.createElement("span");
    detail.className = "detail";
    detail.textContent = cards.length ? " " + cards.map(face).join(" ") : "";
    const reason = $(button.id + "-why");
    reason.textContent = button.disabled ? why || "" : "";
    button.replaceChildren(verb, detail, reason);
  }

  // Why an action may not be pressed at the seat's turn: what to do first, or what the
  // selection lacks ("" when it is not the seat's turn: the status line says whose it is;
  // and once the seat has drawn, for Draw and Pass: the status line says what comes next).
  function drawWhy() {
    return myTurn() && frame.phase === "draw" ? "stock empty" : "";  // R20
  }

  function passWhy() {
    return myTurn() && frame.phase === "draw" ? "stock left" : "";  // R20: only once it is empty
  }

  function meldWhy(cards) {
    if (!myTurn()) return "";
    if (frame.phase === "draw") return "draw first";
    if (!legalOf("meld").length) return "no meld";
    return cards.length < 3 ? "select 3+" : "not a meld";
  }

  function discardWhy(cards) {
    if (!myTurn()) return "";
    if (frame.phase === "draw") return "draw first";
    if (!legalOf("discard").length) return view.must_meld ? "use " + face(view.must_meld) + " first" : "meld first";
    return cards.length !== 1 ? "select 1 card" : "not this card";
  }

  function drawControls() {
    const cards = chosen();
    // Each control is enabled by the legal actions that go through it, Meld and Discard by
    // the one the selection makes (pressing one never only brings a refusal); lit when enabled.
    $("draw").disabled = !isLegal("draw");
    $("draw").classList.toggle("lit", isLegal("draw"));
    $("pass").disabled = !isLegal("pass");
    $("pass").classList.toggle("lit", isLegal("pass"));
    $("pass").classList.toggle("hinted", Boolean(hinted && hinted.action === "pass"));
    setLabel($("draw"), "Draw", [], drawWhy());
    setLabel($("pass"), "Pass", [], passWhy());
    const meld = Boolean(meldAction());
    $("meld").disabled = !meld;
    $("meld").classList.toggle("lit", meld);
    setLabel($("meld"), "Meld", cards.length >= 3 ? cards : [], meldWhy(cards));
    const discard = cards.length === 1 && isLegal("discard " + cards[0]);
    $("discard").disabled = !discard;
    $("discard").classList.toggle("lit", discard);
    setLabel($("discard"), "Discard", cards.length === 1 ? cards : [], discardWhy(cards));
    if ($("hint")) $("hint").disabled = !hintsOn || !myTurn() || queue.length > 0;
    $("clear").disabled = cards.length === 0;
    const said = frame.legal_text || [];
    $("legal").replaceChildren(...legal().map((action, index) => {
      const option = document.createElement("option");
      option.value = action;
      if (said[index]) option.label = said[index];
      return option;
    }));
    const tip = [];
    if (hinted) tip.push("Hint: " + hinted.text + ".");
    else if (myTurn() && cards.length === 1) {
      const targets = layOffTargets();
      const may = [];
      if (targets.size) may.push("lay it off on meld " + [...targets].join(" or "));
      if (isLegal("discard " + cards[0])) may.push("discard it");
      if (may.length) tip.push(face(cards[0]) + ": you may " + may.join(", or ") + ".");
    } else if (myTurn() && cards.length >= 3 && meldAction()) {
      tip.push("These cards make a meld: press Meld.");
    }
    $("tip").textContent = tip.join(" ");
  }

  function markLast() {
    document.querySelectorAll(".last").forEach((element) => element.classList.remove("last"));
    if (!lastAction || !lastAction.cards.length) return;
    const words = lastAction.action.split(" ");
    let scope = [];
    if (words[0] === "discard") scope = [...$("pile").querySelectorAll("[data-card]")].slice(-1);
    else if (words[0] === "meld") scope = [...$("melds").querySelectorAll("[data-meld]")].slice(-1).flatMap((meld) => [...meld.querySelectorAll("[data-card]")]);
    else if (words[0] === "layoff") scope = [...$("melds").querySelectorAll('[data-meld="' + words[2] + '"] [data-card]')];
    else if (lastAction.seat === mySeat) scope = [...$("hand").querySelectorAll("[data-card]")];
    const left = lastAction.cards.slice();
    scope.forEach((element) => {
      const at = left.indexOf(element.dataset.card);
      if (at >= 0) { element.classList.add("last"); left.splice(at, 1); }
    });
  }

  function result() {
    const [ns, ew] = frame.scores;
    const said = "Game over: " + TEAMS[0] + " " + ns + ", " + TEAMS[1] + " " + ew;
    if (ns === ew) return said + ": a draw.";
    const winner = ns > ew ? 0 : 1;
    if (mySeat === null) return said + ": " + TEAMS[winner] + " win.";
    const mine = teamOf(mySeat);
    return said + ". " + (winner === mine ? "Your team, " + TEAMS[mine] + ", wins." : "Your team, " + TEAMS[mine] + ", loses to " + TEAMS[winner] + ".");
  }

  function describe() {
    if (lost) return status.textContent;
    if (frame.phase === "game_over") return result();
    if (frame.phase === "round_over") return "Deal " + frame.deal + " is over.";
    if (myTurn()) {
      if (view.must_meld) return "Your turn: meld or lay off " + face(view.must_meld) + " (taken from the pile), then discard.";
      if (frame.phase === "draw") return isLegal("draw") ? "Your turn: draw from the stock or take from the discard pile." : "Your turn: the stock is empty: take from the discard pile or pass.";
      return "Your turn: meld, lay off, or discard one card.";
    }
    const who = seatName(frame.turn);
    return thinking(frame.turn) ? who + ", the " + botName(frame.seats[frame.turn]) + " bot, is thinking…" : "Waiting for " + who + ".";
  }

  // --- keyboard focus ----------------------------------------------------------------------
  // Drawing a frame replaces the cards and disables what may no longer be done: the focus
  // stays on the same control, or goes to the hand, never to the page itself.
  function focusKey() {
    const active = document.activeElement;
    if (!active || active === document.body || !main.contains(active)) return null;
    if (active.closest("#hand")) return { hand: active.dataset.card, index: Number(active.dataset.index) };
    if (active.dataset.pile !== undefined) return { pile: active.dataset.pile };
    if (active.dataset.meld !== undefined) return { meld: active.dataset.meld };
    return active.id ? { id: active.id } : null;
  }

  function restoreFocus(key) {
    if (!key) return;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected && !active.disabled) return;
    let target = null;
    if (key.id) target = $(key.id);
    else if (key.pile !== undefined) target = $("pile").querySelector('[data-pile="' + key.pile + '"]');
    else if (key.meld !== undefined) target = $("melds").querySelector('[data-meld="' + key.meld + '"]');
    else if (key.hand !== undefined) {
      const cards = [...$("hand").querySelectorAll("[data-index]")];
      target = cards.find((card) => card.dataset.card === key.hand) || cards[Math.min(key.index, cards.length - 1)];
    }
    if (!target || target.disabled || target.hidden) {
      target = $("hand") && ($("hand").querySelector(".drawn") || $("hand").querySelector(".must") || $("hand").querySelector('[tabindex="0"]'));
    }
    if (!target) target = $("log");
    if (target.closest("#hand")) focusCard(Number(target.dataset.index));
    else target.focus({ preventScroll: true });
  }

  // --- the log -----------------------------------------------------------------------------
  function addLog(entry) {
    const log = $("log");
    if (entry.kind === "deal") {
      const section = document.createElement("section");
      section.dataset.deal = String(entry.deal);
      const heading = document.createElement("h3");
      heading.textContent = entry.text;
      section.append(heading, document.createElement("ol"));
      log.append(section);
    } else {
      let section = log.lastElementChild;
      if (!section) { section = document.createElement("section"); section.append(document.createElement("ol")); log.append(section); }
      if (entry.kind === "score") {
        const score = document.createElement("p");
        score.className = "score";
        score.textContent = entry.text;
        section.append(score);
      } else {
        const item = document.createElement("li");
        item.dataset.seq = String(entry.seq);
        item.dataset.seat = String(entry.seat);
        item.textContent = entry.text;
        if (entry.kind === "hint") item.className = "hint";
        else item.dataset.action = entry.action;
        section.querySelector("ol").append(item);
        log.querySelectorAll("li.latest").forEach((old) => old.classList.remove("latest"));
        item.classList.add("latest");
        if (entry.kind === "action") lastAction = entry;
      }
    }
    log.scrollTop = log.scrollHeight;  // the newest entries in sight
  }

  // --- hints -------------------------------------------------------------------------------
  function showHint(message) {
    if (!frame || message.seq !== frame.seq) return;  // the game moved on
    hinted = { action: message.action, text: message.text };
    const words = message.action.split(" ");
    const cards = words[0] === "meld" ? words.slice(1) : words[0] === "discard" || words[0] === "layoff" ? [words[1]] : [];
    if (cards.length) {
      selected = new Set();
      const left = cards.slice();
      handCards.forEach((card, index) => {
        const at = left.indexOf(card);
        if (at >= 0) { selected.add(index); left.splice(at, 1); }
      });
    }
    draw();
  }

  // --- the end of a deal ---------------------------------------------------------------------
  function showSheet() {
    const shown = sheetFrame;
    if (!shown) return;
    const rows = [["", "melded", "laid off", "doubles", "in hand", "going out", "deal total"]];
    shown.sheet.forEach((team) => rows.push([team.name, team.melded, team.laid_off, team.doubles, -team.in_hand, team.going_out, team.total]));
    rows.push(["Game totals", "", "", "", "", "", shown.scores[0] + " / " + shown.scores[1]]);
    $("sheet-table").replaceChildren(...rows.map((row, index) => {
      const tr = document.createElement("tr");
      row.forEach((cell) => { const td = document.createElement(index === 0 ? "th" : "td"); td.textContent = String(cell); tr.appendChild(td); });
      return tr;
    }));
    const over = shown.phase === "game_over";
    $("sheet-title").textContent = "Score sheet: deal " + shown.deal + " of " + shown.deals;
    $("sheet-result").textContent = over ? result() : "The next deal has started: close this to play it.";
    // At the game's end the rematch and the lobby are in the sheet while it is open, and on
    // the page once it is closed.
    if (over) { $("end").hidden = false; $("sheet-end").append($("end")); }
    $("show-sheet").hidden = true;
    $("sheet-close").textContent = over ? "Look at the table" : "Play the next deal";
    if (!sheet.open) sheet.showModal();
  }

  async function rematch() {
    say("Setting up the rematch…", "");
    try {
      const response = await fetch("/api/rematch/" + token, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      const answer = await response.json();
      if (!response.ok) { say(answer.error || "The rematch could not be set up.", "error"); return; }
      location.assign(answer.url);
    } catch (error) {
      say("The rematch could not be set up: the server did not answer.", "error");
    }
  }

  // --- the turn cue ----------------------------------------------------------------------------
  let wasMyTurn = false;
  function cue() {
    const now = myTurn();
    if (now && !wasMyTurn && sound && window.AudioContext) {
      const context = new AudioContext();
      const tone = context.createOscillator();
      const gain = context.createGain();
      gain.gain.value = 0.08;
      tone.frequency.value = 660;
      tone.connect(gain).connect(context.destination);
      tone.start();
      tone.stop(context.currentTime + 0.15);
    }
    wasMyTurn = now;
  }

  // --- wiring --------------------------------------------------------------------------------
  const flight = document.createElement("div");
  flight.id = "flight";
  flight.setAttribute("aria-hidden", "true");
  document.body.append(flight);
  // The log keeps its newest entries in sight, whatever changes its size.
  new ResizeObserver(() => { $("log").scrollTop = $("log").scrollHeight; }).observe($("log"));
  const record = $("record");
  if (record) record.href = "/record/" + token;
  $("pace").value = paceName();
  $("pace").addEventListener("change", () => setPace($("pace").value));
  sheet.addEventListener("close", () => {
    document.querySelector("header").append($("end"));
    $("show-sheet").hidden = false;
    draw();
    play();
  });
  $("sheet-close").addEventListener("click", () => sheet.close());
  $("show-sheet").addEventListener("click", showSheet);
  if ($("rematch")) $("rematch").addEventListener("click", rematch);
  $("retake").addEventListener("click", () => { say("Taking the seat back…", ""); if (socket) socket.onclose = null; connect(); });
  if (mySeat !== null) {
    $("stock").addEventListener("click", () => act("draw"));
    $("draw").addEventListener("click", () => act("draw"));
    $("pass").addEventListener("click", () => act("pass"));
    $("meld").addEventListener("click", () => {
      const cards = chosen();
      const action = meldAction();
      act(action || "meld " + cards.join(" "));
    });
    $("discard").addEventListener("click", () => { const cards = chosen(); if (cards.length === 1) act("discard " + cards[0]); });
    if ($("hint")) $("hint").addEventListener("click", () => send({ type: "hint" }));
    $("clear").addEventListener("click", () => { selected = new Set(); draw(); });
    $("by-suit").addEventListener("click", () => { keepOrder(handCards.slice().sort((a, b) => suitOrder(a) - suitOrder(b) || rankOrder(a) - rankOrder(b))); selected = new Set(); draw(); });
    $("by-rank").addEventListener("click", () => { keepOrder(handCards.slice().sort((a, b) => rankOrder(a) - rankOrder(b) || suitOrder(a) - suitOrder(b))); selected = new Set(); draw(); });
    $("sound").addEventListener("click", () => { sound = !sound; $("sound").setAttribute("aria-pressed", String(sound)); $("sound").textContent = sound ? "Sound: on" : "Sound: off"; });
    $("typed").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = $("action").value.trim();
      if (text === "help" || text === "?") {
        const said = frame && frame.legal_text ? frame.legal_text : legal();
        say(said.length ? "You may " + said.join("; ") + "." : "It is not your turn: nothing to play now.", "");
        return;
      }
      if (text) act(text);  // kept in the box until the server accepts it
    });
  }
  connect();
})();
