#!/bin/sh
# Build CGSuite's MisereSolver (Plambeck and Siegel's incremental misère-quotient solver, in
# aaron-siegel/cgsuite) outside this repository, offline, for benchmarks/quotient.py --cgsuite.
#
#   benchmarks/anchors/build_cgsuite_misere.sh SNAPSHOT_GIT_DIR OUT_DIR
#
# SNAPSHOT_GIT_DIR: a clone (or bare snapshot) of cgsuite.  Needs javac (JDK 11 or newer).
# The solver's own files (lib/core/.../misere/solver) are compiled as they are, except where
# they reach into the rest of CGSuite (Scala and the CGScript interpreter): the heap rules
# come from a small octal-code class written here (HeapRuleset, the options of a heap as
# arrays of heap sizes, empty heaps left out), the XML loader, the command line and the
# loader's constructor are left out.  OUT_DIR/run-misere CODE MAX_HEAP runs the solver heap
# by heap and prints one line: code, heap, order, P size, seconds (the JVM's start excluded).
set -eu
snapshot=$1
out=$(realpath -m "$2")
work=$(mktemp -d)
dir=lib/core/src/main/scala/org/cgsuite/core/misere/solver
git --git-dir="$snapshot" archive HEAD "$dir" | tar -x -C "$work"
src="$work/$dir"
rm "$src/MsvLoader.java" "$src/CommandLineInterface.java" "$src/CommandLineOptions.java"
python3 - "$src/MisereSolver.java" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
text = re.sub(r"import org\.cgsuite\.core\.impartial\.\w+;\n|import scala\.[\w.]+;\n", "", text)
text = re.sub(r"public MisereSolver\(InputStream.*?\n    }\n", "", text, count=1, flags=re.S)
text = re.sub(r"(public List<int\[\]> heapOptions\(int heapSize\)\s*{).*?\n    }\n",
              r"\1\n        return rules.heapOptions(heapSize);\n    }\n", text, count=1, flags=re.S)
text = text.replace("rules.allOptions(heap).isEmpty()", "rules.heapOptions(heap).isEmpty()")
for needle in ("MsvLoader", "TakeAndBreak", "CollectionConverters", "allOptions"):
    assert needle not in text, needle
open(path, "w").write(text)
PY
cat > "$src/HeapRuleset.java" <<'JAVA'
package org.cgsuite.core.misere.solver;

import java.util.ArrayList;
import java.util.List;

/** An octal game's heap rules (written for the benchmark anchor, not part of CGSuite). */
public class HeapRuleset
{
    private final String code;
    private final int[] digits;  // digits[k]: the octal digit for taking k tokens

    public HeapRuleset(String code)
    {
        this.code = code;
        String tail = code.substring(code.indexOf('.') + 1);
        digits = new int[tail.length() + 1];
        digits[0] = code.startsWith("4") ? 4 : 0;
        for (int k = 1; k <= tail.length(); k++) digits[k] = tail.charAt(k - 1) - '0';
    }

    /** The options of one heap: the sizes of the heaps left (no empty heaps), each once. */
    public List<int[]> heapOptions(int n)
    {
        List<int[]> result = new ArrayList<>();
        java.util.Set<Long> seen = new java.util.HashSet<>();
        for (int k = 0; k < digits.length && k <= n; k++)
        {
            int d = digits[k], rest = n - k;
            if ((d & 1) != 0 && rest == 0 && k > 0) add(result, seen, new int[0]);
            if ((d & 2) != 0 && rest > 0 && k > 0) add(result, seen, new int[] {rest});
            if ((d & 4) != 0)
                for (int a = 1; 2 * a <= rest; a++)
                    if (k > 0 || a < rest) add(result, seen, new int[] {a, rest - a});
        }
        return result;
    }

    private static void add(List<int[]> result, java.util.Set<Long> seen, int[] option)
    {
        long key = option.length == 0 ? -1 : option.length == 1 ? option[0] : ((long) option[0] << 32) | option[1];
        if (seen.add(key)) result.add(option);
    }

    @Override public String toString() { return code; }
}
JAVA
cat > "$src/TimeoutException.java" <<'JAVA'
package org.cgsuite.core.misere.solver;

class TimeoutException extends RuntimeException {}
JAVA
cat > "$src/RunMisere.java" <<'JAVA'
package org.cgsuite.core.misere.solver;

/** java RunMisere CODE MAX_HEAP: the solver to MAX_HEAP; one line of figures. */
public class RunMisere
{
    public static void main(String[] args)
    {
        String code = args[0];
        int maxHeap = Integer.parseInt(args[1]);
        long start = System.nanoTime();
        MisereSolver ms = new MisereSolver(new HeapRuleset(code));
        while (ms.p.prefn.size() <= maxHeap) ms.next();
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("%s %d %d %d %.3f%n", code, ms.p.prefn.size() - 1,
                          ms.p.quotient.monoid.size(), ms.p.quotient.pPortionSize(), seconds);
    }
}
JAVA
mkdir -p "$out/classes"
javac -nowarn -encoding UTF-8 -d "$out/classes" "$src"/*.java 2>&1 | grep -v '^Note:' || true
test -f "$out/classes/org/cgsuite/core/misere/solver/RunMisere.class"
cat > "$out/run-misere" <<SH
#!/bin/sh
exec java -Xss64m -cp "$out/classes" org.cgsuite.core.misere.solver.RunMisere "\$@"
SH
chmod +x "$out/run-misere"
rm -rf "$work"
echo "$out/run-misere"
