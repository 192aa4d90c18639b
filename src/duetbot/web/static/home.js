// The home page: deal a new game (variant, seed) and open it.
"use strict";
document.getElementById("new-game").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const form = ev.target, button = form.querySelector("button"), message = document.getElementById("message");
  const custom = form.custom.value.trim();
  button.disabled = true;
  message.textContent = "";
  try {
    const response = await fetch("/api/games", {
      method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({variant: custom || form.variant.value, seed: form.seed.value.trim() || null}),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.statusText);
    window.location.assign(body.url);
  } catch (err) {
    message.textContent = err.message;
    button.disabled = false;
  }
});
