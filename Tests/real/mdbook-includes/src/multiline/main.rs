pub fn main() -> () {
    println!("main()");
}
