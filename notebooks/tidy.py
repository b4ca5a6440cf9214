"""Tidy executed notebooks' stored outputs: run after `jupyter nbconvert --execute --inplace`.

Consecutive stream outputs of one cell (stdout printed in pieces) are merged into one output and
list-valued text is joined into one string; the run timestamps nbconvert records are dropped. That is how a browser shows them, so the stored output
and the rendered one agree (the site's browser test compares them), and nbval compares the same.

    python notebooks/tidy.py notebooks/*.ipynb notebooks/*/*.ipynb
"""

import json
import sys


def tidy(nb: dict) -> dict:
    for cell in nb.get("cells", []):
        merged = []
        for out in cell.get("outputs", []):
            if isinstance(out.get("text"), list):
                out["text"] = "".join(out["text"])
            if (out.get("output_type") == "stream" and merged and merged[-1].get("output_type") == "stream"
                    and merged[-1].get("name") == out.get("name")):
                merged[-1]["text"] += out["text"]
            else:
                merged.append(out)
        if "outputs" in cell:
            cell["outputs"] = merged
        cell.get("metadata", {}).pop("execution", None)  # run timestamps: noise in every diff
    return nb


if __name__ == "__main__":
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            nb = json.load(f)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(tidy(nb), f, ensure_ascii=False, indent=1)
            f.write("\n")
