// htmx leaves error responses unswapped; the preview's 429 carries a polite message to show.
document.addEventListener("htmx:beforeSwap", function (event) {
  if (event.detail.xhr.status === 429) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
