// The login form: username and password fields, a submit button and the error line.
export function renderLoginForm(root, onSubmit) {
  const form = document.createElement('form');
  form.innerHTML = `
    <label>Username <input name="username" autocomplete="username"></label>
    <label>Password <input name="password" type="password"></label>
    <button type="submit">Log in</button>
    <p class="error" hidden></p>`;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    onSubmit(data.get('username'), data.get('password'));
  });
  root.append(form);
  return form;
}

export function showLoginError(form, message) {
  const line = form.querySelector('.error');
  line.textContent = message;
  line.hidden = false;
}
