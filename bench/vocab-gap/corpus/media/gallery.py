class Gallery:
    """An album of pictures with captions, shown as a grid on the gallery page."""

    def __init__(self, title):
        self.title = title
        self.pictures = []

    def add_picture(self, path, caption=''):
        self.pictures.append({'path': path, 'caption': caption})

    def grid(self, columns=4):
        return [self.pictures[i:i + columns] for i in range(0, len(self.pictures), columns)]
