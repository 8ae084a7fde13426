// The emulator's web chat: plain JS, no build step. Every text comes from /_emulator/texts
// (locales/<lang>/emulator.po); the page itself holds no sentence.
"use strict";

const state = {
  texts: {}, lang: "pt_BR", bot: null, commands: [], users: [], chats: [], chat: null, messages: [],
  userId: null, chatId: null, version: -1, lastRenderedChat: null,
};
const $ = (selector) => document.querySelector(selector);

function t(key, params = {}) {
  const template = state.texts[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
}

async function api(path, options) {
  const response = await fetch(path, options);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || String(response.status));
  return body;
}

const post = (path, body) => api(path, {
  method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
});

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// ------------------------------------------------------------------ formatting (MessageEntity -> HTML)
const TAGS = {
  bold: ["<b>", "</b>"], italic: ["<i>", "</i>"], underline: ["<u>", "</u>"], strikethrough: ["<s>", "</s>"],
  code: ["<code>", "</code>"], pre: ["<pre>", "</pre>"], blockquote: ["<blockquote>", "</blockquote>"],
  spoiler: ['<span class="spoiler">', "</span>"], bot_command: ['<span class="cmd">', "</span>"],
};

function openTag(entity) {
  if (entity.type === "text_link") {
    const safe = /^(https?|tg):\/\//.test(entity.url || "") ? entity.url : "#";
    return `<a href="${escapeHtml(safe)}" target="_blank" rel="noopener">`;
  }
  return (TAGS[entity.type] || ["", ""])[0];
}

function closeTag(entity) {
  return entity.type === "text_link" ? "</a>" : (TAGS[entity.type] || ["", ""])[1];
}

// Entity offsets are UTF-16 code units, which is exactly how JavaScript indexes strings.
function formatText(text, entities) {
  const list = [...(entities || [])].sort((a, b) => a.offset - b.offset || b.length - a.length);
  const open = [];
  let html = "";
  for (let i = 0; i <= text.length; i++) {
    for (let k = open.length - 1; k >= 0; k--) {
      if (open[k].offset + open[k].length === i) { html += closeTag(open[k]); open.splice(k, 1); }
    }
    for (const entity of list) {
      if (entity.offset === i && entity.length > 0) { html += openTag(entity); open.push(entity); }
    }
    if (i < text.length) html += escapeHtml(text[i]);
  }
  return html;
}

// ------------------------------------------------------------------ loading
function userName(id) {
  const user = state.users.find((u) => u.id === id);
  return user ? user.first_name : String(id);
}

function currentUser() {
  return state.users.find((u) => u.id === state.userId) || null;
}

async function refresh() {
  const [info, users] = await Promise.all([api("/_emulator/info"), api("/_emulator/users")]);
  state.bot = info.bot;
  state.commands = info.commands;
  state.users = users.users;
  if (!currentUser()) state.userId = state.users.length ? state.users[0].id : null;
  state.chats = state.userId ? (await api(`/_emulator/chats?user_id=${state.userId}`)).chats : [];
  if (!state.chats.some((c) => c.chat_id === state.chatId)) state.chatId = null;
  if (state.chatId !== null) {
    const body = await api(`/_emulator/chats/${state.chatId}/messages`);
    state.chat = body.chat;
    state.messages = body.messages;
  } else {
    state.chat = null;
    state.messages = [];
  }
  render();
}

async function pollForever() {
  for (;;) {
    try {
      const { version } = await api(`/_emulator/poll?since=${state.version}&timeout=5`);
      state.version = version;
      await refresh();
    } catch (error) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

function remember() {
  localStorage.setItem("emulator.user", state.userId ?? "");
  localStorage.setItem("emulator.chat", state.chatId ?? "");
}

// ------------------------------------------------------------------ rendering
function chatTitle(chat) {
  return chat.type === "private" ? state.bot.first_name : chat.title;
}

function render() {
  document.title = t("title");
  const users = $("#users");
  users.innerHTML = "";
  for (const user of state.users) {
    const chip = document.createElement("button");
    chip.className = "user-chip" + (user.id === state.userId ? " active" : "");
    chip.textContent = user.first_name;
    chip.dataset.userId = user.id;
    chip.setAttribute("role", "tab");
    chip.onclick = () => selectUser(user.id);
    users.appendChild(chip);
  }
  $("#no-users").hidden = state.users.length > 0;
  $("#new-group").disabled = state.users.length === 0;

  const list = $("#chat-list");
  list.innerHTML = "";
  for (const chat of state.chats) {
    const item = document.createElement("li");
    item.dataset.chatId = chat.chat_id;
    item.className = chat.chat_id === state.chatId ? "active" : "";
    const sub = chat.type === "private" ? t("private_chat") : t("members", { names: chat.member_ids.map(userName).join(", ") });
    item.innerHTML = `<div>${escapeHtml(chatTitle(chat))}${chat.type === "private" ? "" : ` <span class="badge">${escapeHtml(t("group_badge"))}</span>`}</div>`
      + `<div class="sub">${escapeHtml(sub)}</div>`;
    item.onclick = () => selectChat(chat.chat_id);
    list.appendChild(item);
  }
  renderChat();
}

function renderChat() {
  const chat = state.chat;
  document.body.classList.toggle("in-chat", Boolean(chat));
  $("#chat-empty").hidden = Boolean(chat);
  $("#chat-view").hidden = !chat;
  if (!chat) return;
  $("#chat-title").textContent = chatTitle(chat);
  $("#chat-sub").textContent = chat.type === "private"
    ? `@${state.bot.username}` : t("members", { names: chat.member_ids.map(userName).join(", ") });
  $("#pinned").hidden = !chat.pinned;
  $("#pinned-text").textContent = chat.pinned ? (chat.pinned.text || t("photo")) : "";
  const typing = $("#typing");
  typing.hidden = !chat.action;
  typing.textContent = chat.action
    ? t(chat.action === "upload_photo" ? "sending_photo" : "typing", { name: state.bot.first_name }) : "";

  const box = $("#messages");
  const nearBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
  const switched = state.lastRenderedChat !== chat.chat_id;
  box.innerHTML = "";
  const visible = state.messages.filter((m) => !m.deleted);
  if (!visible.length) box.innerHTML = `<div class="hint">${escapeHtml(t("empty_chat"))}</div>`;
  for (const message of visible) box.appendChild(renderMessage(message, chat));
  if (switched || nearBottom) box.scrollTop = box.scrollHeight;
  state.lastRenderedChat = chat.chat_id;

  const user = currentUser();
  const mustStart = chat.type === "private" && user && !user.started;
  $("#composer").hidden = mustStart;
  $("#start-bar").hidden = !mustStart;
  $("#start-hint").textContent = t("start_hint", { bot: state.bot.first_name });
  $("#commands-button").hidden = state.commands.length === 0;
}

function renderMessage(message, chat) {
  const mine = !message.from_bot && message.from_user_id === state.userId;
  const wrap = document.createElement("div");
  wrap.className = "message" + (mine ? " mine" : "") + (message.from_bot ? " from-bot" : "");
  wrap.dataset.messageId = message.message_id;
  const bubble = document.createElement("div");
  bubble.className = "bubble";
  let html = "";
  if (!mine && (chat.type !== "private" || message.from_bot)) {
    const name = message.from_bot ? state.bot.first_name : userName(message.from_user_id);
    html += `<div class="sender">${escapeHtml(name)}${message.from_bot ? ` <span class="badge">${escapeHtml(t("bot_badge"))}</span>` : ""}</div>`;
  }
  if (message.reply_to_message_id) {
    const replied = state.messages.find((m) => m.message_id === message.reply_to_message_id && !m.deleted);
    if (replied) {
      const who = replied.from_bot ? state.bot.first_name : userName(replied.from_user_id);
      const what = (replied.text ?? replied.caption ?? (replied.document ? replied.document.file_name : t("photo"))).slice(0, 80);
      html += `<div class="quote"><b>${escapeHtml(who)}</b> ${escapeHtml(what)}</div>`;
    }
  }
  if (message.has_photo) html += `<img src="${escapeHtml(message.photo_url)}" alt="${escapeHtml(t("photo"))}">`;
  if (message.document) {
    const kb = Math.max(1, Math.round(message.document.size / 1024));
    html += `<a class="document" href="${escapeHtml(message.document.url)}" download="${escapeHtml(message.document.file_name)}">📄 ${escapeHtml(message.document.file_name)} · ${kb} KB</a>`;
  }
  if (message.text !== null) html += `<div class="text">${formatText(message.text, message.entities)}</div>`;
  if (message.caption) html += `<div class="caption">${formatText(message.caption, message.caption_entities)}</div>`;
  const time = new Date(message.date * 1000).toLocaleTimeString(state.lang.replace("_", "-"), { hour: "2-digit", minute: "2-digit" });
  html += `<div class="meta">${message.edit_count ? escapeHtml(t("edited")) + " · " : ""}${escapeHtml(time)}</div>`;
  bubble.innerHTML = html;
  for (const spoiler of bubble.querySelectorAll(".spoiler")) spoiler.onclick = () => spoiler.classList.add("shown");
  for (const command of bubble.querySelectorAll(".cmd")) command.onclick = () => sendText(command.textContent);
  wrap.appendChild(bubble);
  if (message.reply_markup) wrap.appendChild(renderKeyboard(message));
  return wrap;
}

function renderKeyboard(message) {
  const keyboard = document.createElement("div");
  keyboard.className = "keyboard";
  for (const row of message.reply_markup) {
    const line = document.createElement("div");
    line.className = "kb-row";
    for (const button of row) {
      const element = document.createElement("button");
      element.className = "kb-button" + (button.url ? " url" : "");
      element.textContent = button.text;
      if (button.callback_data !== undefined) {
        element.dataset.callbackData = button.callback_data;
        element.onclick = () => pressButton(message, button, element);
      } else if (button.url) {
        element.dataset.url = button.url;
        element.onclick = () => openUrl(button.url);
      }
      line.appendChild(element);
    }
    keyboard.appendChild(line);
  }
  return keyboard;
}

// ------------------------------------------------------------------ feedback
let toastTimer = null;
function toast(text) {
  const box = $("#toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 2500);
}

function alertBox(text) {
  $("#alert-text").textContent = text;
  $("#alert").showModal();
}

function failed(error) {
  toast(t("error", { error: error.message }));
}

// ------------------------------------------------------------------ actions
function selectUser(id) {
  state.userId = id;
  state.chatId = null;
  remember();
  refresh().catch(failed);
}

function selectChat(id) {
  state.chatId = id;
  remember();
  refresh().catch(failed);
}

async function sendText(text) {
  if (!text.trim() || state.chatId === null) return;
  await post("/_emulator/messages", { chat_id: state.chatId, user_id: state.userId, text });
  await refresh();
}

async function pressButton(message, button, element) {
  element.disabled = true;
  try {
    const answer = await post("/_emulator/callbacks", {
      chat_id: state.chatId, message_id: message.message_id, user_id: state.userId, callback_data: button.callback_data,
    });
    if (!answer.answered) toast(t("no_answer"));
    else if (answer.text && answer.show_alert) alertBox(answer.text);
    else if (answer.text) toast(answer.text);
  } catch (error) {
    failed(error);
  } finally {
    element.disabled = false;
  }
}

function deepLinkPattern() {
  return new RegExp(`^https?://(t|telegram)\\.me/${state.bot.username}\\?start=`, "i");
}

async function openUrl(url) {
  if (deepLinkPattern().test(url)) {
    try {
      const result = await post("/_emulator/deeplinks", { user_id: state.userId, url });
      state.chatId = result.chat_id;
      remember();
      await refresh();
    } catch (error) {
      failed(error);
    }
    return;
  }
  if (window.confirm(t("open_link", { url }))) window.open(url, "_blank", "noopener");
}

function toggleCommands() {
  const menu = $("#commands-menu");
  menu.hidden = !menu.hidden;
  menu.innerHTML = "";
  for (const command of state.commands) {
    const item = document.createElement("div");
    item.innerHTML = `<b>/${escapeHtml(command.command)}</b> — ${escapeHtml(command.description)}`;
    item.onclick = () => {
      menu.hidden = true;
      $("#text").value = `/${command.command} `;
      $("#text").focus();
    };
    menu.appendChild(item);
  }
}

async function newUser() {
  const name = window.prompt(t("new_user_prompt"));
  if (!name || !name.trim()) return;
  const { user_id } = await post("/_emulator/users", { first_name: name.trim(), language_code: state.lang.replace("_", "-").toLowerCase() });
  selectUser(user_id);
}

function openGroupDialog() {
  $("#group-title").value = t("group_title_default");
  const members = $("#group-members");
  members.innerHTML = "";
  for (const user of state.users) {
    const label = document.createElement("label");
    label.style.flexDirection = "row";
    label.innerHTML = `<input type="checkbox" value="${user.id}" ${user.id === state.userId ? "checked" : ""}> ${escapeHtml(user.first_name)}`;
    members.appendChild(label);
  }
  $("#group-dialog").showModal();
}

async function createGroup() {
  const ids = [...document.querySelectorAll("#group-members input:checked")].map((box) => Number(box.value));
  // The creator comes first: Telegram reports them as the group's owner.
  ids.sort((a, b) => (b === state.userId) - (a === state.userId));
  const { chat_id } = await post("/_emulator/groups", { title: $("#group-title").value.trim(), member_ids: ids });
  selectChat(chat_id);
}

// ------------------------------------------------------------------ start-up
async function boot() {
  const params = new URLSearchParams(location.search);
  // pt-BR unless asked otherwise (?lang=en is remembered): the players are Brazilian first.
  if (params.get("lang")) localStorage.setItem("emulator.lang", params.get("lang"));
  const wanted = params.get("lang") || localStorage.getItem("emulator.lang") || "pt_BR";
  const texts = await api(`/_emulator/texts?lang=${encodeURIComponent(wanted)}`);
  state.texts = texts.texts;
  state.lang = texts.lang;
  document.documentElement.lang = state.lang.replace("_", "-");
  for (const element of document.querySelectorAll("[data-t]")) element.textContent = t(element.dataset.t);
  $("#text").placeholder = t("placeholder");
  $("#commands-button").title = t("commands");
  state.userId = Number(params.get("user") || localStorage.getItem("emulator.user")) || null;
  state.chatId = Number(params.get("chat") || localStorage.getItem("emulator.chat")) || null;

  $("#composer").onsubmit = (event) => {
    event.preventDefault();
    const input = $("#text");
    const text = input.value;
    input.value = "";
    $("#commands-menu").hidden = true;
    sendText(text).catch(failed);
  };
  $("#start").onclick = () => sendText("/start").catch(failed);
  $("#back").onclick = () => { state.chatId = null; remember(); refresh().catch(failed); };
  $("#commands-button").onclick = toggleCommands;
  $("#new-user").onclick = () => newUser().catch(failed);
  $("#new-group").onclick = openGroupDialog;
  $("#group-form").onsubmit = (event) => {
    if (event.submitter && event.submitter.value === "create") createGroup().catch(failed);
  };
  await refresh();
  pollForever();
}

boot().catch(failed);
