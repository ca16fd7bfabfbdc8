class ReportTable:
    """A table of results shown on the report page: columns, sorting and a total line."""

    def __init__(self, columns):
        self.columns = columns
        self.rows = []

    def add(self, *cells):
        self.rows.append(cells)

    def sorted_by(self, column, reverse=False):
        i = self.columns.index(column)
        return sorted(self.rows, key=lambda r: r[i], reverse=reverse)

    def total(self, column):
        i = self.columns.index(column)
        return sum(r[i] for r in self.rows)
