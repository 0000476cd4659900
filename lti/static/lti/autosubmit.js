// Submit the deep-linking response to the platform at once (the button stays for no-script).
document.querySelectorAll("form[data-autosubmit]").forEach((form) => form.submit());
