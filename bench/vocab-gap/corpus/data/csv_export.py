import csv
import io


def to_csv(headers, rows, delimiter=','):
    """Serialises rows of cells with a header line, quoting cells that need it."""
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=delimiter, quoting=csv.QUOTE_MINIMAL)
    writer.writerow(headers)
    for row in rows:
        writer.writerow(['' if cell is None else cell for cell in row])
    return buf.getvalue()
