// The page layout: header, sidebar, content and footer, and the reading width of text.
export function layoutPage(root, { sidebar = true } = {}) {
  root.classList.add('page');
  root.classList.toggle('with-sidebar', sidebar);
  const content = root.querySelector('.content');
  content.style.maxWidth = '72ch';
  return content;
}
