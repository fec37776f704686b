fn main() {
    println!("This is a file!");
}
