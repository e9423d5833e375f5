null.o: /dev/null \
 /work/main/jdk/src/hotspot/share/gc/g1/flexheap/flexHeapController.hpp \
 /work/main/jdk/src/hotspot/share/gc/g1/flexheap/flexHeapCostModel.hpp
/work/main/jdk/src/hotspot/share/gc/g1/flexheap/flexHeapController.hpp:
/work/main/jdk/src/hotspot/share/gc/g1/flexheap/flexHeapCostModel.hpp:
