# The finished cells of a registered test sweep's folder, read from its committed compact records (cells/),
# each with its base seed: the seed of the cohort's first agent names it.
import json, os


def done_cells(folder):
    """Yield (base seed, cell record) for every done cell under FOLDER/cells, in file order."""
    cells = os.path.join(folder, 'cells')
    for f in sorted(os.listdir(cells)):
        c = json.load(open(os.path.join(cells, f)))
        if c['status'] == 'done':
            yield c['assign']['cohort.agents'][0]['seed'], c
