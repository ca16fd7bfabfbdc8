class UserProfile:
    """A user's public profile: name, avatar and the secrets they chose to keep private."""

    def __init__(self, user_id, display_name):
        self.user_id = user_id
        self.display_name = display_name
        self.avatar_url = None
        self.private_fields = set()

    def hide(self, field):
        self.private_fields.add(field)

    def public_view(self):
        return {k: v for k, v in vars(self).items() if k not in self.private_fields}
