import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "golden"))
from ..a.b import (c,
  d as e)
import x.y as z, w
_D = Path(__file__).parent
sys.path.append(str(_D))
try: import q
except ImportError: pass
